import { describe, expect, it } from 'vitest';
import { STYLE_ATTRIBUTE } from './inline-style.ts';
import { withoutParseTimeMarkup } from './without-parse-time-markup.ts';

describe('withoutParseTimeMarkup', () => {
  it('drops inline event handlers, in HTML, SVG and MathML', () => {
    expect(withoutParseTimeMarkup('<img src="a.png" onerror="x()" alt="A">')).toBe(
      '<img src="a.png" alt="A">',
    );
    expect(withoutParseTimeMarkup('<svg onload="x()"><animate onbegin="x()"/></svg>')).toBe(
      '<svg><animate></animate></svg>',
    );
    expect(withoutParseTimeMarkup('<details open ONTOGGLE="x()">d</details>')).toBe(
      '<details open="">d</details>',
    );
  });

  it('moves style attributes aside (inline-style.ts), drops a spoofed one, and base elements', () => {
    expect(withoutParseTimeMarkup('<p style="color:red" title="t">x</p>')).toBe(
      `<p title="t" ${STYLE_ATTRIBUTE}="color:red">x</p>`,
    );
    expect(withoutParseTimeMarkup('<DIV ONCLICK=go() Style=a>x</DIV>')).toBe(
      `<div ${STYLE_ATTRIBUTE}="a">x</div>`,
    );
    expect(withoutParseTimeMarkup(`<p ${STYLE_ATTRIBUTE}="color:red">x</p>`)).toBe('<p>x</p>');
    expect(withoutParseTimeMarkup('<base href="http://evil.example/">x')).toBe('x');
    expect(withoutParseTimeMarkup('<a href="x"onmouseover="y">z</a>')).toBe('<a href="x">z</a>');
    expect(withoutParseTimeMarkup('<svg/onload=x>')).toBe('<svg></svg>');
  });

  it('keeps what only looks like a handler: text, attribute values, comments', () => {
    for (const html of [
      'a &lt; b and onclick=x',
      '<a title="onclick=x style=y">t</a>',
      '<a title="&lt;img onerror=x&gt;">t</a>',
      '<!-- <img onerror=x> -->',
      '<p>style="x"</p>',
    ])
      expect(withoutParseTimeMarkup(html)).toBe(html);
  });

  it('drops style elements wherever they are, mXSS shapes included', () => {
    expect(withoutParseTimeMarkup('<p>a</p><style>p{}</style><p>b</p>')).toBe('<p>a</p><p>b</p>');
    const mxss = '<math><mtext><table><mglyph><style><img src=x onerror=x()>';
    expect(withoutParseTimeMarkup(mxss)).not.toMatch(/<style|onerror/i);
    expect(
      withoutParseTimeMarkup('<svg></p><style><a id="</style><img onerror=x()>">'),
    ).not.toMatch(/<style|onerror/i);
  });

  it('parses <noscript> with scripting off, like DOMPurify and the sandboxed frame', () => {
    // With scripting on, the <img> would be an element of its own; off, it is a title's text.
    expect(withoutParseTimeMarkup('<noscript><p title="</noscript><img src=x onerror=x()>">')).toBe(
      '<noscript><p title="&lt;/noscript&gt;&lt;img src=x onerror=x()&gt;"></p></noscript>',
    );
  });

  it('looks inside <template> content', () => {
    expect(withoutParseTimeMarkup('<template><img onerror="x()"></template>')).toBe(
      '<template><img></template>',
    );
  });

  it('keeps everything else as it was, text and entities included', () => {
    const html = '<p class="lead">Hello &amp; <a href="https://example.com/">welcome</a></p>';
    expect(withoutParseTimeMarkup(html)).toBe(html);
    expect(withoutParseTimeMarkup('talk on=time, onboarding')).toBe('talk on=time, onboarding');
  });

  it('survives nesting deeper than the call stack', () => {
    const deep = '<div>'.repeat(50_000) + '<img onerror="x()">';
    expect(withoutParseTimeMarkup(deep)).not.toMatch(/onerror/);
  });
});
