import { Link, NavLink, Outlet } from 'react-router';
import { navItems } from './nav-items.ts';

/** The shell around every page: skip link, banner with the navigation, and the main landmark. */
export function Layout() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <p className="app-title">
          <Link to="/">Listkeeper</Link>
        </p>
        <nav aria-label="Main">
          <ul className="app-nav">
            {navItems.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to}>{item.label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
