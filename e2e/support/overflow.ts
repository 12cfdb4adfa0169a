import { expect, type Page } from '@playwright/test';

/** The narrowest phone the app is laid out for (iPhone 12–15). */
export const PHONE_VIEWPORT = { width: 390, height: 844 } as const;

/** How wide the page (html and body) scrolls, and the widest elements that stick out past the viewport. */
interface PageWidth {
  readonly html: number;
  readonly body: number;
  readonly offenders: string[];
}

function measurePageWidth(viewportWidth: number): PageWidth {
  const describe = (element: Element) => {
    const id = element.getAttribute('data-testid') ?? element.getAttribute('aria-label');
    const classes = typeof element.className === 'string' ? element.className.slice(0, 80) : '';
    return `${element.tagName.toLowerCase()}${id ? `[${id}]` : ''} .${classes} → ${Math.round(element.getBoundingClientRect().right)}px`;
  };
  // The outermost elements that reach past the right edge, skipping those inside a scroll container.
  const offenders: string[] = [];
  const visit = (element: Element) => {
    const style = getComputedStyle(element);
    if (element.getBoundingClientRect().right > viewportWidth + 0.5 && style.position !== 'fixed') {
      offenders.push(describe(element));
      if (offenders.length >= 8) return;
    }
    if (style.overflowX === 'auto' || style.overflowX === 'scroll' || style.overflowX === 'hidden') return;
    for (const child of Array.from(element.children)) visit(child);
  };
  visit(document.body);
  // Absolutely positioned elements escape a clipping ancestor that is not their containing block.
  for (const element of Array.from(document.body.querySelectorAll('*'))) {
    if (offenders.length >= 8) break;
    if (getComputedStyle(element).position !== 'absolute') continue;
    if (element.getBoundingClientRect().right > viewportWidth + 0.5) offenders.push(describe(element));
  }
  return {
    html: document.documentElement.scrollWidth,
    body: document.body.scrollWidth,
    offenders,
  };
}

/**
 * Asserts the page does not scroll sideways at the current viewport width: neither the document
 * nor the body is wider than the viewport. Tables may scroll inside their own container; the page
 * may not. On failure the message lists the elements that stick out.
 */
export async function expectNoHorizontalOverflow(page: Page, label: string) {
  const viewportWidth = page.viewportSize()?.width ?? PHONE_VIEWPORT.width;
  const width = await page.evaluate(measurePageWidth, viewportWidth);
  const message = `${label} at ${viewportWidth}px: html ${width.html}px, body ${width.body}px; sticking out: ${width.offenders.join(' | ') || 'none'}`;
  expect(width.html, message).toBeLessThanOrEqual(viewportWidth);
  expect(width.body, message).toBeLessThanOrEqual(viewportWidth);
}

/**
 * Visits each path at phone width (390×844) and asserts none overflows horizontally. `settle` runs
 * after each navigation (wait for the page's data) before the measurement.
 */
export async function expectRoutesFitPhoneWidth(
  page: Page,
  paths: readonly string[],
  settle: (page: Page, path: string) => Promise<void> = async (current) => {
    await current.waitForLoadState('networkidle');
  },
) {
  await page.setViewportSize(PHONE_VIEWPORT);
  const failures: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    await settle(page, path);
    try {
      await expectNoHorizontalOverflow(page, path);
    } catch (error) {
      failures.push(
        error instanceof Error
          ? (error.message.split('\n').find((line) => line.includes('sticking out')) ?? error.message)
          : String(error),
      );
    }
  }
  expect(failures, failures.join('\n')).toEqual([]);
}
