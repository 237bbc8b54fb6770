/**
 * Every keyboard shortcut, in one table: the cheat sheet (`?`) is drawn from it and the
 * handlers are registered from it, so the two cannot disagree. `mod` is Ctrl, or Cmd on a Mac.
 */
export const SHORTCUTS = [
  { keys: '?', label: '?', what: 'Show these shortcuts (Shift and the key that makes ?)' },
  { keys: 'mod+1', label: 'Ctrl/⌘ 1', what: 'Go to Compose' },
  { keys: 'mod+2', label: 'Ctrl/⌘ 2', what: 'Go to Queue' },
  { keys: 'mod+3', label: 'Ctrl/⌘ 3', what: 'Go to Gallery' },
  { keys: 'mod+4', label: 'Ctrl/⌘ 4', what: 'Go to Settings' },
  {
    keys: 'mod+enter',
    label: 'Ctrl/⌘ Enter',
    what: 'Run the composed batch (Compose), or the edit (Editor)',
  },
  {
    keys: 'mod+shift+enter',
    label: 'Ctrl/⌘ Shift Enter',
    what: 'Run it at the front of the queue (Compose)',
  },
  { keys: 'mod+shift+p', label: 'Ctrl/⌘ Shift P', what: 'Pause or resume the queue' },
  // the gallery grid's own keys (renderer/src/screens/gallery/GalleryGrid.tsx)
  { keys: 'up, down, left, right', label: '← → ↑ ↓', what: 'Move between images (Gallery)' },
  {
    keys: 'shift+up, shift+down',
    label: 'Shift ← → ↑ ↓',
    what: 'Extend the selection (Gallery); move a zoomed picture (Lightbox, Compare)',
  },
  { keys: 'space', label: 'Space', what: 'Select or unselect the image (Gallery)' },
  { keys: 'enter', label: 'Enter', what: 'Open the image in the lightbox (Gallery)' },
  { keys: 'mod+a', label: 'Ctrl/⌘ A', what: 'Select every image of the view (Gallery)' },
  // the lightbox's and compare's own keys (renderer/src/screens/gallery/lightbox/keys.ts)
  { keys: 'left, right', label: '← →', what: 'Previous or next image (Lightbox)' },
  { keys: 'home, end', label: 'Home End', what: 'First or last image (Gallery, Lightbox)' },
  { keys: 'f', label: 'F', what: 'Favourite the selection (Gallery) or the image (Lightbox)' },
  {
    keys: 'i',
    label: 'I',
    what: 'Show or hide the details (Lightbox); invert the mask (Editor)',
  },
  { keys: 'plus, minus, 0', label: '+ − 0', what: 'Zoom in, out, fit (Lightbox, Compare)' },
  { keys: 'e', label: 'E', what: 'Edit the selection or the image (Gallery, Lightbox)' },
  { keys: 'delete', label: 'Delete', what: 'Delete the selection or the image, after asking' },
  { keys: 'escape', label: 'Esc', what: 'Clear the selection; close the lightbox or compare' },
  // the editor's own keys (renderer/src/screens/edit/edit-keys.ts)
  { keys: 'b, e, h', label: 'B E H', what: 'Brush, eraser, move (Editor); Space held moves too' },
  { keys: 'bracketleft, bracketright', label: '[ ]', what: 'Smaller or larger brush (Editor)' },
  { keys: 'delete, backspace', label: 'Delete', what: 'Clear the mask (Editor)' },
  { keys: 'mod+z', label: 'Ctrl/⌘ Z', what: 'Undo a stroke (Editor)' },
  { keys: 'mod+shift+z', label: 'Ctrl/⌘ Shift Z', what: 'Redo it (Editor)' },
] as const;
