import { describe, expect, it } from 'vitest';
import { csrfProblem, type RequestOrigin } from './csrf.ts';

const origin = 'https://dash.example';
const dashboard: RequestOrigin = { method: 'POST', origin, secFetchSite: 'same-origin', customHeader: '1' };

describe('csrfProblem (SECURITY.md 27)', () => {
  it("lets the dashboard's own requests through", () => {
    expect(csrfProblem(dashboard, origin)).toBeNull();
    // A same-origin GET carries no Origin; Sec-Fetch-Site says where it comes from.
    expect(csrfProblem({ ...dashboard, method: 'GET', origin: undefined }, origin)).toBeNull();
    // An older browser without Fetch Metadata still sends Origin on a POST.
    expect(csrfProblem({ ...dashboard, secFetchSite: undefined }, origin)).toBeNull();
  });

  it('refuses a forged cross-site request, whatever it carries', () => {
    expect(csrfProblem({ ...dashboard, origin: 'https://evil.example', secFetchSite: 'cross-site' }, origin)).toMatch(/another site/);
    expect(csrfProblem({ ...dashboard, origin: 'https://evil.example', secFetchSite: undefined }, origin)).toMatch(/another origin/);
    // Same site is not same origin: a sibling subdomain is another application.
    expect(csrfProblem({ ...dashboard, origin: 'https://other.dash.example', secFetchSite: 'same-site' }, origin)).toMatch(/another site/);
    expect(csrfProblem({ ...dashboard, origin: 'http://dash.example' }, origin)).toMatch(/another origin/);
  });

  it("needs the dashboard's header on every request, GET included", () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE'])
      expect(csrfProblem({ ...dashboard, method, customHeader: undefined }, origin)).toMatch(/x-listkeeper-request/);
    expect(csrfProblem({ ...dashboard, customHeader: '0' }, origin)).toMatch(/x-listkeeper-request/);
  });

  it('refuses a state-changing request that does not say where it comes from', () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'])
      expect(csrfProblem({ method, origin: undefined, secFetchSite: undefined, customHeader: '1' }, origin)).toMatch(/does not say/);
  });
});
