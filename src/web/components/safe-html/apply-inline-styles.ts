import { safeDeclarations, STYLE_ATTRIBUTE } from '../../../api/safe-html/inline-style.ts';

/**
 * Applies the kept styles of a sanitized document through CSSOM (src/api/safe-html/inline-style.ts
 * says why), then drops the attributes that carried them. Runs on the frame's document once it has
 * loaded.
 */
export function applyInlineStyles(root: ParentNode): void {
  for (const element of root.querySelectorAll(`[${STYLE_ATTRIBUTE}]`)) {
    const style = (element as Partial<ElementCSSInlineStyle>).style;
    const text = element.getAttribute(STYLE_ATTRIBUTE) ?? '';
    element.removeAttribute(STYLE_ATTRIBUTE);
    if (!style) continue;
    for (const { property, value, important } of safeDeclarations(text)) {
      style.setProperty(property, value, important ? 'important' : '');
    }
  }
}
