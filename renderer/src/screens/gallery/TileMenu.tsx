import { useEffect, useLayoutEffect, useRef, useState } from 'react';

export interface MenuItem {
  label: string;
  /** The key that does the same in the grid, shown at the item's right. */
  keys?: string;
  danger?: boolean;
  disabled?: boolean;
  run(): void;
}

/** Room kept between the menu and the window's edges. */
const MARGIN = 8;

/**
 * A tile's menu, at the pointer (a right-click) or at the tile (the Menu key, Shift+F10): what
 * can be done to the selection, each item with the key that does the same. The arrow keys,
 * Home and End move through it, Enter or Space chooses, Escape or a click elsewhere closes it,
 * and the focus goes back where it was.
 */
export function TileMenu({
  at,
  label,
  items,
  onClose,
}: {
  at: { x: number; y: number };
  label: string;
  items: readonly MenuItem[];
  onClose(): void;
}) {
  const menuRef = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState(at);
  const returnTo = useRef<Element | null>(null);

  // inside the window, whatever the corner it opened in; the first item takes the focus
  useLayoutEffect(() => {
    const menu = menuRef.current;
    if (!menu) return;
    returnTo.current = document.activeElement;
    const { width, height } = menu.getBoundingClientRect();
    setPlace({
      x: Math.max(MARGIN, Math.min(at.x, window.innerWidth - width - MARGIN)),
      y: Math.max(MARGIN, Math.min(at.y, window.innerHeight - height - MARGIN)),
    });
    menu.querySelector<HTMLElement>('[role="menuitem"]:not([disabled])')?.focus();
  }, [at]);

  useEffect(() => {
    const outside = (event: PointerEvent) => {
      if (!menuRef.current?.contains(event.target as Node)) onClose();
    };
    const away = () => onClose();
    document.addEventListener('pointerdown', outside, true);
    window.addEventListener('blur', away);
    window.addEventListener('resize', away);
    return () => {
      document.removeEventListener('pointerdown', outside, true);
      window.removeEventListener('blur', away);
      window.removeEventListener('resize', away);
    };
  }, [onClose]);

  const close = () => {
    onClose();
    (returnTo.current as HTMLElement | null)?.focus?.({ preventScroll: true });
  };
  const move = (from: Element, by: 1 | -1 | 'first' | 'last') => {
    const enabled = [
      ...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([disabled])') ??
        []),
    ];
    const i = enabled.indexOf(from as HTMLElement);
    const next =
      by === 'first'
        ? 0
        : by === 'last'
          ? enabled.length - 1
          : (i + by + enabled.length) % enabled.length;
    enabled[next]?.focus();
  };

  return (
    <div
      ref={menuRef}
      className="tile-menu"
      role="menu"
      aria-label={label}
      tabIndex={-1}
      style={{ left: place.x, top: place.y }}
      onKeyDown={(event) => {
        const moves: Record<string, 1 | -1 | 'first' | 'last'> = {
          ArrowDown: 1,
          ArrowUp: -1,
          Home: 'first',
          End: 'last',
        };
        const by = moves[event.key];
        if (by !== undefined) move(event.target as Element, by);
        else if (event.key === 'Escape' || event.key === 'Tab') close();
        else return;
        event.preventDefault();
        event.stopPropagation();
      }}
      onContextMenu={(event) => event.preventDefault()}
    >
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className={`tile-menu-item${item.danger ? ' danger-text' : ''}`}
          disabled={item.disabled}
          onClick={() => {
            close();
            item.run();
          }}
        >
          <span>{item.label}</span>
          {item.keys && <kbd aria-hidden="true">{item.keys}</kbd>}
        </button>
      ))}
    </div>
  );
}
