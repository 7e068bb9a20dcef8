import { OutboundFailure, requestPinned } from '../../base/outbound/outbound-request.js';
import {
  OutboundRefused,
  type OutboundRules,
  resolveTarget,
  UnresolvedHost,
} from '../../base/outbound/outbound-url.js';
import type { EwayBillRequest } from '../../domain/paperwork/eway-bill-request.js';
import {
  billOf,
  descriptionOf,
  type EwayBillGateway,
  type GatewayCredentials,
  GatewayFailure,
  GatewayRefusal,
  refusalCodes,
  statusOf,
} from './eway-bill-gateway.js';

/*
 * A GST Suvidha Provider's e-way bill API, as WhiteBooks (MasterGST) publishes it and public clients
 * call it: `GET {base}/ewaybillapi/v1.03/authenticate?email=&username=&password=` with the headers
 * `client_id`, `client_secret` and `gstin`, then `POST {base}/ewaybillapi/v1.03/ewayapi/genewaybill?email=`
 * with the same headers, the token the auth call answered (`authtoken`) and NIC's request as plain
 * JSON (a WhiteBooks client in Python, index id 6292649478, and the route lists of index ids
 * 56659603112 and 54969273994; the GSP encrypts towards NIC, so its client sends no SEK). The
 * account's base_url is judged by the one outbound guard before each call, as every URL an account
 * controls is.
 */

const API = '/ewaybillapi/v1.03';
/** A GSP that has not answered in this long will not: the merchant tries again. */
export const GSP_TIMEOUT_MS = 20_000;

type Body = Record<string, unknown>;

export function createGspGateway(rules: OutboundRules, timeoutMs = GSP_TIMEOUT_MS): EwayBillGateway {
  async function call(
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<Body> {
    let target: Awaited<ReturnType<typeof resolveTarget>>;
    try {
      target = await resolveTarget(url, rules, 'base_url');
    } catch (error) {
      if (error instanceof OutboundRefused || error instanceof UnresolvedHost)
        throw new GatewayFailure(`the GSP's base_url cannot be called: ${error.message}`, 'down');
      throw error;
    }
    let answer: Awaited<ReturnType<typeof requestPinned>>;
    try {
      answer = await requestPinned(target, {
        method,
        headers: {
          accept: 'application/json',
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...headers,
        },
        body,
        timeoutMs,
      });
    } catch (error) {
      if (error instanceof OutboundFailure)
        throw new GatewayFailure(
          `the GSP could not be reached: ${error.reason === 'timeout' ? 'it did not answer in time' : error.message}`,
          'down',
        );
      throw error;
    }
    if (answer.status >= 500) throw new GatewayFailure(`the GSP answered HTTP ${answer.status}`, 'down');
    if (answer.status >= 300 && answer.status < 400)
      throw new GatewayFailure(
        `the GSP answered HTTP ${answer.status}, a redirect: redirects are not followed`,
        'down',
      );
    try {
      const json = JSON.parse(answer.body) as unknown;
      if (typeof json === 'object' && json !== null && !Array.isArray(json)) return json as Body;
    } catch {
      // not JSON: unreadable below
    }
    throw new GatewayFailure(`the GSP answered HTTP ${answer.status} with something other than JSON`, 'unreadable');
  }

  const refusal = (stage: 'auth' | 'generate', body: Body) => {
    const codes = refusalCodes(body);
    return codes.length > 0 || statusOf(body) === '0' ? new GatewayRefusal(stage, codes, descriptionOf(body)) : null;
  };

  return {
    async generate(credentials: GatewayCredentials, request: EwayBillRequest) {
      const base = credentials.baseUrl.replace(/\/+$/, '');
      const headers: Record<string, string> = {
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
        gstin: credentials.gstin,
      };
      const email = encodeURIComponent(credentials.email);
      const login = new URLSearchParams({
        email: credentials.email,
        username: credentials.username,
        password: credentials.password,
      });
      const auth = await call('GET', `${base}${API}/authenticate?${login}`, headers);
      if (statusOf(auth) !== '1') {
        throw (
          refusal('auth', auth) ?? new GatewayFailure('the GSP answered its auth call without a status', 'unreadable')
        );
      }
      // The token comes under data (authtoken); a GSP that keys its session on the headers answers none.
      const data = auth.data as Body | undefined;
      const token = data?.authtoken ?? data?.AuthToken ?? auth.authtoken;
      const generated = await call(
        'POST',
        `${base}${API}/ewayapi/genewaybill?email=${email}`,
        { ...headers, ...(typeof token === 'string' && token !== '' && { authtoken: token }) },
        JSON.stringify(request),
      );
      const bill = billOf(generated);
      if (bill) return bill;
      throw (
        refusal('generate', generated) ??
        new GatewayFailure('the GSP answered the generate call without a bill or an error code', 'unreadable')
      );
    },
  };
}
