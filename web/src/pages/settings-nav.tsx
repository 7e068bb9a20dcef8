import { useCan } from '../permissions';
import { Link, useLocation } from '../router';

const SECTIONS = [
  { to: '/settings', label: 'Stores and warehouses' },
  { to: '/settings/webhooks', label: 'Webhooks' },
  { to: '/settings/api-keys', label: 'API keys' },
  { to: '/settings/notifications', label: 'E-mail notifications' },
  { to: '/settings/couriers', label: 'Courier connections' },
  { to: '/settings/allocation', label: 'Courier allocation' },
  { to: '/settings/channels', label: 'Sales channels' },
  { to: '/settings/paperwork', label: 'Paperwork' },
  { to: '/settings/privacy', label: "Buyers' data" },
  { to: '/settings/members', label: 'Members', needs: 'members:manage' },
  { to: '/settings/audit-log', label: 'Audit log', needs: 'audit:read' },
] as const;

/** The settings' own sections, each a page of its own (a link, so each has an address). */
export function SettingsNav() {
  const { path } = useLocation();
  const can = useCan();
  return (
    <nav aria-label="Settings">
      <ul className="sub-list">
        {SECTIONS.filter((section) => !('needs' in section) || can(section.needs)).map((section) => (
          <li key={section.to}>
            <Link to={section.to} className="sub-link" aria-current={path === section.to ? 'page' : undefined}>
              {section.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
