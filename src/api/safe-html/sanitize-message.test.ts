import DOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { STYLE_ATTRIBUTE } from './inline-style.ts';
import { sanitizeMessageHtml } from './sanitize-message.ts';

// The rules take any DOMPurify instance: here the server's kind, over a jsdom window.
const window = new JSDOM('').window;
const clean = (
  html: string,
  shown: ReadonlyMap<string, string> = new Map(),
  blocked?: Set<string>,
) => sanitizeMessageHtml(DOMPurify(window), html, shown, blocked);

describe('sanitizeMessageHtml: the message rules of the dashboard and the archive', () => {
  it('holds remote images back, keeps data: images, and names what it held', () => {
    const blocked = new Set<string>();
    const html = clean(
      '<p>Hi</p><img src="https://tracker.example/p.png" alt="pixel"><img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">',
      new Map(),
      blocked,
    );
    expect(html).not.toContain('tracker.example');
    expect(html).toContain('src="data:image/png;base64,iVBORw0KGgo="');
    expect([...blocked]).toEqual(['https://tracker.example/p.png']);
  });

  it('shows a remote image only as the data: URL it was given', () => {
    const shown = new Map([['https://img.example/a.png', 'data:image/png;base64,AAAA']]);
    expect(clean('<img src="https://img.example/a.png" alt="a">', shown)).toBe(
      '<img src="data:image/png;base64,AAAA" alt="a">',
    );
  });

  it('drops scripts, handlers, styles and links that lead back into the origin', () => {
    const html = clean(
      '<script>x()</script><img src=x onerror="x()"><style>p{}</style><a href="/l/">in</a><a href="https://ok.example/">out</a><p style="color: red; background: url(http://t.example/)">s</p>',
    );
    expect(html).not.toMatch(/script|onerror|<style|href="\/l\/|url\(/i);
    expect(html).toContain('<a href="https://ok.example/">out</a>');
    expect(html).toContain(`${STYLE_ATTRIBUTE}="color: red"`);
  });
});
