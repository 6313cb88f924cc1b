import { describe, expect, it } from 'vitest';
import { dropInlineCode } from './inline-code.ts';

describe('dropInlineCode', () => {
  it('drops event handlers and style attributes, keeping the rest of the tag', () => {
    expect(dropInlineCode('<img src=x onerror="a()" alt=\'y\'>')).toBe("<img src=x  alt='y'>");
    expect(dropInlineCode('<p style="color:red" title="t">x</p>')).toBe('<p  title="t">x</p>');
    expect(dropInlineCode('<DIV ONCLICK=go() Style=a>x</DIV>')).toBe('<DIV  >x</DIV>');
    expect(dropInlineCode('<a href="x"onmouseover="y">z</a>')).toBe('<a href="x" >z</a>');
    expect(dropInlineCode('<svg/onload=x>')).toBe('<svg/>');
  });

  it('keeps what only looks like a handler: text, quoted values, comments', () => {
    const kept = [
      'a < b and onclick=x',
      '<a title="onclick=x style=y">t</a>',
      "<a title='<img onerror=x>'>t</a>",
      '<!-- <img onerror=x> -->',
      '<p>style="x"</p>',
      '<option value="1">one</option>',
    ];
    for (const html of kept) expect(dropInlineCode(html)).toBe(html);
  });

  it('drops style elements with their content, and base elements', () => {
    expect(dropInlineCode('<p>a</p><style>p { color: red }</style><p>b</p>')).toBe(
      '<p>a</p><p>b</p>',
    );
    expect(dropInlineCode('<STYLE media=x>@import url(y)</Style >b')).toBe('b');
    expect(dropInlineCode('<style>unclosed')).toBe('');
    expect(dropInlineCode('<base href="http://evil.example/">x')).toBe('x');
  });

  it('reads tags as HTML does: unterminated quotes and tags run to the end', () => {
    expect(dropInlineCode('<a title="x>y onclick=z')).toBe('<a title="x>y onclick=z');
    expect(dropInlineCode('<img onerror=x')).toBe('<img ');
  });

  it('stays linear on hostile input', () => {
    const started = Date.now();
    dropInlineCode('<a '.repeat(200_000));
    dropInlineCode(`<a${' x=1'.repeat(200_000)}`);
    dropInlineCode('<style>'.repeat(100_000));
    dropInlineCode('<a title="'.repeat(100_000));
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
