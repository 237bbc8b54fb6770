import { memo, Suspense, useCallback, useEffect, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { Toaster } from 'sonner';
import { useQueueState, useSettings } from '../data/app-queries.ts';
import { usePauseQueue, useResumeQueue } from '../screens/queue/queue-actions.ts';
import { Notices } from '../views/Notices.tsx';
import { FinishedToasts } from './FinishedToasts.tsx';
import { navigate, SCREENS, useScreen } from './navigation.ts';
import { loadScreensWhenIdle, screenView } from './screen-views.ts';
import { ShortcutsDialog } from './ShortcutsDialog.tsx';
import { Sidebar } from './Sidebar.tsx';
import { StatusBar } from './StatusBar.tsx';
import { useTheme } from './theme.ts';
import { useQuestionMark } from './use-question-mark.ts';
import { WindowTitle } from './window-title.ts';

/** The app's frame: sidebar, the current screen, the status bar, toasts and shortcuts. */
export function Frame() {
  const screen = useScreen();
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const openCheatSheet = useCallback(() => setShortcutsOpen(true), []);
  const theme = useSettings().data?.theme;
  useTheme(theme);
  useEffect(() => loadScreensWhenIdle(), []);
  const Screen = screenView(screen);
  return (
    <div className="frame">
      <WindowTitle />
      <Sidebar current={screen} />
      <main className="frame-main" aria-label={SCREENS.find((s) => s.id === screen)!.label}>
        <Notices />
        <Suspense fallback={null}>
          <Screen />
        </Suspense>
      </main>
      <StatusBar onShortcuts={() => setShortcutsOpen(true)} />
      <ShortcutsDialog open={shortcutsOpen} onOpenChange={setShortcutsOpen} />
      <FrameShortcuts openCheatSheet={openCheatSheet} />
      <FinishedToasts />
      <Toasts theme={theme ?? 'system'} />
    </div>
  );
}

/**
 * Sonner's Toaster reads the page's direction and colour scheme on every render, each a style
 * recalculation of the whole page: rendered again only when the theme changes.
 */
const Toasts = memo(function Toasts({ theme }: { theme: 'system' | 'light' | 'dark' }) {
  return <Toaster theme={theme} position="bottom-right" offset={OFFSET} closeButton richColors />;
});
const OFFSET = { bottom: '3.5rem', right: '1rem' };

/**
 * The frame's shortcuts, in a component of their own: the pause shortcut follows the queue's
 * pause, which must not re-render the frame and the screen under it.
 */
function FrameShortcuts({ openCheatSheet }: { openCheatSheet: () => void }): null {
  const paused = useQueueState((queue) => queue.paused).data ?? null;
  const pause = usePauseQueue();
  const resume = useResumeQueue();
  useQuestionMark(openCheatSheet);
  useHotkeys('mod+1', () => navigate('compose'), { preventDefault: true, enableOnFormTags: true });
  useHotkeys('mod+2', () => navigate('queue'), { preventDefault: true, enableOnFormTags: true });
  useHotkeys('mod+3', () => navigate('gallery'), { preventDefault: true, enableOnFormTags: true });
  useHotkeys('mod+4', () => navigate('settings'), { preventDefault: true, enableOnFormTags: true });
  useHotkeys(
    'mod+shift+p',
    () => void (paused ? resume.run() : pause.run('Paused by you')),
    // in a text field too: a person typing in Compose is where a pause is needed at once
    { preventDefault: true, enableOnFormTags: true },
    [paused, pause, resume],
  );
  return null;
}
