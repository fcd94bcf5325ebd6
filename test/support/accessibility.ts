/**
 * Accessibility checks of the participant pages in a real Chromium (docs/accessibility.md):
 * axe-core run from the test, and what axe cannot see about keyboard focus.
 *
 * axe is injected with `page.evaluate(source)`: Playwright evaluates it over the DevTools protocol
 * in the page's main world, which the page's Content-Security-Policy (`default-src 'none'`, no
 * script at all) does not govern, so the pages are tested exactly as served, with their CSP in
 * force. A `<script>` element the test added would be blocked by that CSP, and turning the CSP
 * off (`bypassCSP`) would test other pages than the participants get; neither is done here.
 * (Strings, not functions, are evaluated: this project's TypeScript has no DOM types.)
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/** The two sizes every page is checked at: a laptop, and a phone held upright. */
export const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
] as const;

/** The WCAG 2.0, 2.1 and 2.2 success criteria of levels A and AA that axe has rules for. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  /** The axe rule, e.g. `color-contrast`. */
  rule: string;
  /** The element, as a CSS selector. */
  target: string;
  message: string;
}

/** axe-core in the page shown (once per document). */
export async function injectAxe(page: Page): Promise<void> {
  if ((await page.evaluate('typeof window.axe')) === 'undefined') {
    await page.evaluate(AXE_SOURCE);
  }
}

/** axe's violations of {@link WCAG_TAGS} on the page as it is shown now. */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  await injectAxe(page);
  const options = { runOnly: { type: 'tag', values: WCAG_TAGS }, resultTypes: ['violations'] };
  return page.evaluate<AxeFinding[]>(`
    axe.run(document, ${JSON.stringify(options)}).then((results) =>
      results.violations.flatMap((violation) =>
        violation.nodes.map((node) => ({
          rule: violation.id,
          target: node.target.join(' '),
          message: (node.failureSummary || violation.help).replace(/\\s+/g, ' '),
        })),
      ),
    )`);
}

/** True when the page can be read without scrolling sideways (WCAG 1.4.10 Reflow). */
export async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate<boolean>(
    'document.documentElement.scrollWidth <= document.documentElement.clientWidth',
  );
}

/** What the keyboard focus is on, and how it is drawn. */
export interface Focused {
  tag: string;
  /** `type` of an input. */
  type: string;
  /** Its text, or its label's for an input. */
  name: string;
  value: string;
  checked: boolean;
  outlineStyle: string;
  outlineWidth: number;
  outlineColor: string;
  boxShadow: string;
  /** The colour behind the element: the first opaque background of its ancestors. */
  behind: string;
}

export async function focused(page: Page): Promise<Focused | null> {
  return page.evaluate<Focused | null>(`(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    let behind = 'rgb(255, 255, 255)';
    for (let node = element.parentElement; node; node = node.parentElement) {
      const colour = getComputedStyle(node).backgroundColor;
      if (colour !== 'transparent' && !/rgba\\(.*, 0\\)$/.test(colour)) { behind = colour; break; }
    }
    const label = element.labels && element.labels[0] ? element.labels[0].textContent : null;
    return {
      tag: element.tagName.toLowerCase(),
      type: element.getAttribute('type') || '',
      name: (label ?? element.textContent ?? '').replace(/\\s+/g, ' ').trim(),
      value: element.value ?? '',
      checked: Boolean(element.checked),
      outlineStyle: style.outlineStyle,
      outlineWidth: parseFloat(style.outlineWidth) || 0,
      outlineColor: style.outlineColor,
      boxShadow: style.boxShadow,
      behind,
    };
  })()`);
}

/** `rgb(…)`/`rgba(…)` → [r, g, b] (0–255). */
function rgb(colour: string): [number, number, number] {
  const parts = /rgba?\(([^)]+)\)/.exec(colour)?.[1].split(',').map(Number);
  if (!parts || parts.length < 3) throw new Error(`not an rgb() colour: ${colour}`);
  return [parts[0], parts[1], parts[2]];
}

/** WCAG's relative luminance. */
function luminance(colour: string): number {
  const [r, g, b] = rgb(colour).map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG's contrast ratio of two colours (1–21). */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/**
 * Why the focus indicator of `element` is not visible enough, or null when it is: an outline of at
 * least 2 px with a contrast of at least 3:1 against the colour around it (WCAG 1.4.11, 2.4.7).
 */
export function focusIndicatorProblem(element: Focused): string | null {
  if (element.outlineStyle === 'none' || element.outlineWidth < 2) {
    return element.boxShadow !== 'none'
      ? null
      : `no focus indicator (outline ${element.outlineStyle} ${element.outlineWidth}px)`;
  }
  const ratio = contrast(element.outlineColor, element.behind);
  return ratio >= 3
    ? null
    : `focus outline ${element.outlineColor} on ${element.behind}: contrast ${ratio.toFixed(2)} < 3`;
}
