import { type AnchorHTMLAttributes, type MouseEvent, useEffect, useSyncExternalStore } from 'react';

// Client routes under /app/: the server answers index.html for any of them (src/panel.ts).
const BASE = '/app';
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

const current = () => window.location.pathname.slice(BASE.length).replace(/\/$/, '') + window.location.search;

/** The route (path and query under /app), re-rendering on navigation. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const location = useSyncExternalStore(subscribe, current);
  const [path = '', search = ''] = location.split('?');
  return { path: path || '/', query: new URLSearchParams(search) };
}

export function navigate(to: string, replace = false) {
  const url = `${BASE}${to}`;
  if (replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  for (const listener of listeners) listener();
  window.scrollTo(0, 0);
}

/** A link to a client route: a real <a href> (new tab works), navigated in place on a plain click. */
export function Link({ to, onClick, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={`${BASE}${to}`} onClick={follow} {...rest} />;
}

/** Sets the document title per screen, so a screen reader announces where a navigation landed. */
export function useTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · Dakiya`;
  }, [title]);
}
