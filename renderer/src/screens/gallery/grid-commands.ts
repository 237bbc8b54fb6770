/** What the grid's tiles and keys ask the gallery to do (GalleryScreen does it). */
export interface GridCommands {
  open(index: number): void;
  favorite(ids: readonly number[], favorite: boolean): void;
  retry(ids: readonly number[]): void;
  generateAgain(id: number): void;
  remove(ids: readonly number[]): void;
  /** Opens the editor on these images (a mask over one, or one prompt for many). */
  edit(ids: readonly number[]): void;
  /** The menu of what can be done to the selection, opened at this point of the window. */
  menu(at: { x: number; y: number }): void;
}
