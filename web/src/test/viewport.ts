/**
 * A window width for jsdom, which has no layout and no `matchMedia`: answers the media queries
 * MUI's useMediaQuery asks (`(min-width:768px)`, `(max-width:767.95px)`, joined by `and`) for
 * that width. The test setup puts a desktop width back after each test.
 */
export const DESKTOP_WIDTH = 1280;
export const PHONE_WIDTH = 375;

function matches(query: string, width: number): boolean {
  const conditions = query.replace(/^@media\s*/, '').split(/\s+and\s+/);
  return conditions.every((condition) => {
    const found = /\((min|max)-width:\s*([\d.]+)px\)/.exec(condition);
    if (!found) return false;
    const value = Number(found[2]);
    return found[1] === 'min' ? width >= value : width <= value;
  });
}

export function setViewportWidth(width: number): void {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  window.matchMedia = (query: string) =>
    ({
      matches: matches(query, width),
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
