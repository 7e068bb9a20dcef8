import { describe, expect, it } from 'vitest';
import { ConfigError } from '../base/config-error.js';
import { defaultSettings } from '../settings.js';
import { withConnectors } from './with-connectors.js';
import { checkConnectorSettings } from './couriers.settings.js';
import { loadRatesContext } from '../data-files.js';

const rates = loadRatesContext();
const DEFAULT_COURIER_SETTINGS = defaultSettings().couriers;

describe('start-up checks of the connectors', () => {
  it('stops start-up when a service uses delhivery without DELHIVERY_API_TOKEN, naming the services', () => {
    const onDelhivery = withConnectors(rates, (s) => (s.id.startsWith('CARDELH') ? 'delhivery' : 'push'));
    const ids = onDelhivery.catalogue.services.filter((s) => s.connector === 'delhivery').map((s) => s.id);
    expect(ids.length).toBeGreaterThan(1);
    expect(() => checkConnectorSettings(onDelhivery.catalogue, DEFAULT_COURIER_SETTINGS)).toThrow(
      new ConfigError(
        `DELHIVERY_API_TOKEN must be set: courier services ${ids.join(', ')} use the delhivery connector`,
      ),
    );
    const settings = {
      ...DEFAULT_COURIER_SETTINGS,
      delhivery: { ...DEFAULT_COURIER_SETTINGS.delhivery, token: 'dlv-token' },
    };
    expect(() => checkConnectorSettings(onDelhivery.catalogue, settings)).not.toThrow();
  });

  it('stops start-up when a service uses ekart without all three of its credentials', () => {
    const onEkart = withConnectors(rates, (s) => (s.id === 'CAREKRTSTD001' ? 'ekart' : 'push'));
    const message =
      'EKART_CLIENT_ID, EKART_USERNAME and EKART_PASSWORD must be set: courier services CAREKRTSTD001 use the ekart connector';
    const ekart = { ...DEFAULT_COURIER_SETTINGS.ekart, clientId: 'EK1', username: 'ops' };
    expect(() => checkConnectorSettings(onEkart.catalogue, { ...DEFAULT_COURIER_SETTINGS, ekart })).toThrow(
      new ConfigError(message),
    );
    expect(() =>
      checkConnectorSettings(onEkart.catalogue, { ...DEFAULT_COURIER_SETTINGS, ekart: { ...ekart, password: 'pw' } }),
    ).not.toThrow();
  });

  it('stops start-up when a service uses xpressbees without both its e-mail and password', () => {
    const onXpressbees = withConnectors(rates, (s) => (s.id.startsWith('CARXPBS') ? 'xpressbees' : 'push'));
    const message =
      'XPRESSBEES_EMAIL and XPRESSBEES_PASSWORD must be set: courier services CARXPBSSTD001, CARXPBS250G01 use the xpressbees connector';
    const xpressbees = { ...DEFAULT_COURIER_SETTINGS.xpressbees, email: 'ops@example.in' };
    expect(() => checkConnectorSettings(onXpressbees.catalogue, { ...DEFAULT_COURIER_SETTINGS, xpressbees })).toThrow(
      new ConfigError(message),
    );
    expect(() =>
      checkConnectorSettings(onXpressbees.catalogue, {
        ...DEFAULT_COURIER_SETTINGS,
        xpressbees: { ...xpressbees, password: 'pw' },
      }),
    ).not.toThrow();
  });

  it('stops start-up when a service uses shadowfax without SHADOWFAX_TOKEN', () => {
    const onShadowfax = withConnectors(rates, (s) => (s.id === 'CARSHFXSTD001' ? 'shadowfax' : 'push'));
    const message = 'SHADOWFAX_TOKEN must be set: courier services CARSHFXSTD001 use the shadowfax connector';
    expect(() => checkConnectorSettings(onShadowfax.catalogue, DEFAULT_COURIER_SETTINGS)).toThrow(
      new ConfigError(message),
    );
    const shadowfax = { ...DEFAULT_COURIER_SETTINGS.shadowfax, token: 'sfx-key' };
    expect(() =>
      checkConnectorSettings(onShadowfax.catalogue, { ...DEFAULT_COURIER_SETTINGS, shadowfax }),
    ).not.toThrow();
  });

  it('needs nothing for push and sandbox services', () => {
    expect(() =>
      checkConnectorSettings(withConnectors(rates, () => 'sandbox').catalogue, DEFAULT_COURIER_SETTINGS),
    ).not.toThrow();
    expect(() => checkConnectorSettings(rates.catalogue, DEFAULT_COURIER_SETTINGS)).not.toThrow();
  });
});
