import { type ReactNode, useEffect, useRef, useState } from 'react';
import { type Permission, useCan, useStoreLimited } from './permissions';
import { Link, useLocation } from './router';
import { useSession } from './session';

/**
 * Every screen, in the order a merchant works, with the permission it needs to be shown and
 * whether it answers for every store at once (not shown to a member limited to some); the
 * navigation stays on every page.
 */
export const SCREENS: readonly { to: string; label: string; needs: Permission; everyStore?: true }[] = [
  { to: '/overview', label: 'Overview', needs: 'shipments:read' },
  { to: '/shipments', label: 'Shipments', needs: 'shipments:read' },
  { to: '/create', label: 'Create shipment', needs: 'shipments:write' },
  { to: '/bulk', label: 'Bulk import', needs: 'shipments:write' },
  { to: '/ndr', label: 'NDR', needs: 'shipments:read' },
  { to: '/returns', label: 'Returns', needs: 'returns:read' },
  { to: '/reports', label: 'Reports', needs: 'shipments:read' },
  { to: '/money', label: 'Money', needs: 'money:read' },
  { to: '/settings', label: 'Settings', needs: 'settings:read', everyStore: true },
];

/** The screens the one signed in may open: what they may do, and their stores. */
export function useScreens() {
  const can = useCan();
  const limited = useStoreLimited();
  return SCREENS.filter((screen) => can(screen.needs) && !(limited && screen.everyStore));
}

export function Layout({ children }: { children: ReactNode }) {
  const { session, signOut, signOutEverywhere } = useSession();
  const screens = useScreens();
  const { path } = useLocation();
  // A new screen takes the focus to its content, as a page load would: otherwise a keyboard user
  // stays on the link they followed (or on a button the new screen removed) and tabs through the
  // navigation again to reach what they came for.
  const main = useRef<HTMLElement>(null);
  const shown = useRef(path);
  // On a phone the navigation and the account fold into a menu; it closes again on every navigation.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    if (shown.current === path) return;
    shown.current = path;
    setMenuOpen(false);
    main.current?.focus();
  }, [path]);
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Dakiya</span>
        <button
          type="button"
          className="menu-button link-button"
          aria-expanded={menuOpen}
          aria-controls="menu"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <div id="menu" className="menu" data-open={menuOpen}>
          <nav aria-label="Main">
            <ul>
              {screens.map((screen) => (
                <li key={screen.to}>
                  <Link
                    to={screen.to}
                    aria-current={path === screen.to || path.startsWith(`${screen.to}/`) ? 'page' : undefined}
                  >
                    {screen.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div className="account">
            <Link to="/sign-in" aria-current={path === '/sign-in' ? 'page' : undefined} title="Your sign-in">
              {session.account.name}
              {session.member && ` · ${session.member.name ?? session.member.email} (${session.member.role})`}
            </Link>
            {/* Every device's session of whoever is signed in: a lost phone, a shared computer. */}
            <button type="button" className="link-button" onClick={() => void signOutEverywhere()}>
              End every session
            </button>
            <button type="button" className="link-button" onClick={() => void signOut()}>
              Sign out
            </button>
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} ref={main}>
        {children}
      </main>
    </div>
  );
}
