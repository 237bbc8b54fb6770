import { afterAll, beforeAll } from 'vitest';

/**
 * happy-dom lays nothing out: every element gets a size, as a browser gives a virtual list's
 * scroll box, for the tests of the file that calls this.
 */
export function giveElementsASize(width = 800, height = 600): void {
  const sized = { clientWidth: width, clientHeight: height };
  const real = Object.keys(sized).map((key) =>
    Object.getOwnPropertyDescriptor(HTMLElement.prototype, key),
  );
  beforeAll(() => {
    for (const [key, value] of Object.entries(sized)) {
      Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => value });
    }
  });
  afterAll(() => {
    Object.keys(sized).forEach((key, i) => {
      const descriptor = real[i];
      if (descriptor) Object.defineProperty(HTMLElement.prototype, key, descriptor);
      else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[key];
    });
  });
}
