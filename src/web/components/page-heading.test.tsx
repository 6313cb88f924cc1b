import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PageHeading } from './page-heading.tsx';

describe('PageHeading', () => {
  it('renders the h1 and names the document after the page', () => {
    const html = renderToStaticMarkup(<PageHeading title="Contacts" />);
    expect(html).toContain('<h1>Contacts</h1>');
    expect(html).toContain('<title>Contacts · Listkeeper</title>');
  });
});
