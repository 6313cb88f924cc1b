import { createElement, type ReactElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

/**
 * The server-rendering kit of the public pages (DESIGN.md "The members' side"): React on the
 * server, so every value is escaped by construction and components are typed. Node runs the
 * server's TypeScript by stripping types, which does not cover JSX, so elements are made with
 * `h` (React.createElement) instead.
 */
export const h = createElement;

export type Children = ReactNode;

/** A whole HTML document: no script anywhere, so the page CSP (SECURITY.md 46) holds. */
export function renderDocument(page: ReactElement): string {
  return `<!doctype html>\n${renderToStaticMarkup(page)}`;
}
