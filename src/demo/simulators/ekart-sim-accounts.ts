/**
 * What Ekart's simulator keeps per client id: its tokens and its registered addresses.
 *
 * Tokens: "This is a caching API and will return the same token for a period of 24h. The
 * _expires_in_ will keep decreasing appropriately with subsequent fetches" (Ekart_API.yaml, POST
 * /integrations/v2/auth/token/{client_id}). So a client id is handed its cached token, with what is
 * left of its life, until it lapses; only then a new one. A token Ekart forgets (`drop`) leaves the
 * cache with it; an account whose API access Ekart withdrew (`refuse`) is still handed its cached
 * token, which every call refuses with 401: a new token cannot cure that.
 *
 * Addresses: pickup and return locations are "seller warehouses/addresses registered with us
 * beforehand or using the Address apis" and are named in a create by their alias (Ekart_API.yaml,
 * PUT /api/v1/package/create); POST /api/v2/address {alias, phone, address_line1, address_line2,
 * pincode, city, state, country} registers one and answers {status, alias, remark} (a staging
 * answer in fixtures/ekart.fixtures.ts).
 */
export interface EkartSimLogin {
  clientId: string;
  username: string;
  password: string;
}

export function createEkartSimAccounts(options: {
  logins: readonly EkartSimLogin[];
  tokenSeconds: number;
  now: () => number;
  /**
   * Aliases every client id has registered before the simulator starts (through its account
   * manager); undefined: every alias a create names is registered, as for an account whose
   * warehouses were all registered beforehand.
   */
  aliases?: readonly string[];
}) {
  const tokens = new Map<string, { clientId: string; expiresAt: number }>();
  const cached = new Map<string, string>();
  const refused = new Set<string>();
  const addresses = new Map<string, Map<string, Record<string, unknown>>>();
  let issued = 0;

  const addressesOf = (clientId: string) => {
    let own = addresses.get(clientId);
    if (!own) {
      own = new Map((options.aliases ?? []).map((alias) => [alias, { alias }]));
      addresses.set(clientId, own);
    }
    return own;
  };

  return {
    /** Tokens issued so far: a token handed out again from the cache is not a new one. */
    issued: () => issued,
    /** The token answer for a login, or undefined when Ekart does not know it. */
    token(clientId: string, username: unknown, password: unknown) {
      const login = options.logins.find((l) => l.clientId === clientId);
      if (!login || login.username !== username || login.password !== password) return undefined;
      const now = options.now();
      let value = cached.get(clientId);
      const held = value === undefined ? undefined : tokens.get(value);
      if (!held || held.expiresAt <= now) {
        value = `ekt-${++issued}-${Math.random().toString(36).slice(2)}`;
        tokens.set(value, { clientId, expiresAt: now + options.tokenSeconds * 1000 });
        cached.set(clientId, value);
      }
      const expiresAt = tokens.get(value!)!.expiresAt;
      return {
        access_token: value!,
        scope: 'core:all',
        expires_in: Math.ceil((expiresAt - now) / 1000),
        token_type: 'Bearer',
      };
    },
    /** The client id a bearer token authorises now, or undefined (unknown, lapsed, or its access withdrawn). */
    ownerOf(token: string | undefined) {
      const held = token === undefined ? undefined : tokens.get(token);
      if (!held || held.expiresAt <= options.now() || refused.has(held.clientId)) return undefined;
      return held.clientId;
    },
    /** The client id a token was issued to, whether or not it still works. */
    issuedTo: (token: string | undefined) => (token === undefined ? undefined : tokens.get(token)?.clientId),
    /** Ekart forgets every token it issued, and its cache with them. */
    drop() {
      tokens.clear();
      cached.clear();
    },
    /** Ekart refuses every call of a client id (or gives it back its access): its token call still answers. */
    refuse(clientId: string, refuse = true) {
      if (refuse) refused.add(clientId);
      else refused.delete(clientId);
    },
    /** Whether a client id has an address registered under an alias. */
    hasAlias: (clientId: string, alias: unknown) =>
      typeof alias === 'string' && (options.aliases === undefined || addressesOf(clientId).has(alias)),
    /** The addresses a client id registered, by alias. */
    addressesOf,
    /** POST /api/v2/address: the answer, or why the body is refused (Ekart's 400). */
    register(clientId: string, body: Record<string, unknown>): { answer: unknown } | { problem: string } {
      const alias = typeof body.alias === 'string' ? body.alias.trim() : '';
      if (!alias) return { problem: 'alias is required' };
      if (typeof body.phone !== 'number' || body.phone < 1_000_000_000 || body.phone > 9_999_999_999)
        return { problem: 'phone must be a 10-digit number' };
      // A production client pads address_line1 as "Ekart requires min 10 chars" (index id 71527861319).
      if (typeof body.address_line1 !== 'string' || body.address_line1.trim().length < 10)
        return { problem: 'address_line1 must have at least 10 characters' };
      if (typeof body.pincode !== 'number' || !/^[1-9]\d{5}$/.test(String(body.pincode)))
        return { problem: 'pincode must be a 6-digit number' };
      addressesOf(clientId).set(alias, body);
      const id = `${alias.replace(/\W/g, '').slice(0, 10)}_${addressesOf(clientId).size}`;
      return { answer: { status: true, alias, remark: `Successful operation on Address ${id}`, name: alias } };
    },
  };
}
