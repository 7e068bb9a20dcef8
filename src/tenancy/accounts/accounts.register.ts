import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import { ensureServerSecret } from '../../base/db/secrets.js';
import type { RedisBreaker } from '../../base/redis.js';
import { accountAuth } from '../../http/auth.js';
import type { Host } from '../../http/host.js';
import type { LimitSettings } from '../../http/limits.settings.js';
import type { ServerSettings } from '../../http/server.settings.js';
import { smtpMailer } from '../../base/mailer.js';
import type { MailSettings } from '../../base/mailer.settings.js';
import { adminRoutes, authTokenRevokeRoutes, authTokenRoutes } from './accounts.routes.js';
import { createAccountsService } from './accounts.service.js';
import { createCredentialCache } from './credential-cache.js';
import { auditRecorder } from '../audit/audit.js';
import { passwordHasher } from './credentials.js';
import { loginCheck } from './logins.js';
import { roleRoutes } from './roles.routes.js';
import { securityRoutes } from './security.routes.js';
import { createRolesService } from './roles.service.js';
import { createSessionsService } from './sessions.service.js';
import { twoFactorRoutes } from './two-factor.routes.js';
import { createTwoFactorService } from './two-factor.service.js';
import type { SecretBox } from '../../base/secret-box.js';
import type { AccountSettings } from './accounts.settings.js';
import { apiKeyRoutes } from './api-keys.routes.js';
import { breakerLoginLimiter, memoryLoginLimiter } from './login-limits.js';
import { memberPanelRoutes, memberRoutes } from './members.routes.js';
import { createMembersService } from './members.service.js';
import { createPasswordResetService } from './password-reset.service.js';
import { panelSessions, sessionRoutes } from './sessions.routes.js';

/** One SMTP exchange for an invitation or a reset, as for customer e-mails: the member waits on it. */
const MEMBER_MAIL_TIMEOUT_MS = 30_000;

export interface AccountsContext {
  db: Db;
  clock: Clock;
  settings: { accounts: AccountSettings; limits: LimitSettings; mail: MailSettings; server: ServerSettings };
  /** The limits' shared counters behind their breaker; in process when absent. */
  breaker: RedisBreaker | undefined;
  /** Seals logins' second-factor secrets. */
  secretBox: SecretBox;
}

/**
 * Accounts, their members, credentials and logins: the login, session and invitation routes, the
 * account's own key, token and member routes, the operator's account routes, and the credential
 * check every account route sits behind (an API key, a token, or the panel's session).
 */
export async function registerAccounts(host: Host, { db, clock, settings, breaker, secretBox }: AccountsContext) {
  const allowances = {
    pair: settings.accounts.loginAttemptsPerMinute,
    address: settings.accounts.loginAddressAttemptsPerMinute,
    username: settings.accounts.loginUsernameAttemptsPer15Minutes,
  };
  const loginLimiter = breaker
    ? breakerLoginLimiter(breaker, allowances, settings.limits.redisKeyPrefix)
    : memoryLoginLimiter(allowances);
  const cache = createCredentialCache();
  const passwords = passwordHasher(settings.accounts.passwordHashCost);
  const checkLogin = loginCheck({ db, clock, loginLimiter, passwords });
  const record = auditRecorder(clock);
  const accounts = createAccountsService({ db, clock, checkLogin, cache, passwords, record });
  const twoFactor = createTwoFactorService({ db, clock, box: secretBox });
  const panel = createSessionsService({ db, clock, checkLogin, cache, twoFactor });
  const sessions = panelSessions(panel, await ensureServerSecret(db, 'panel-csrf'));
  host.routes?.add('login', authTokenRoutes(accounts));
  host.routes?.add(
    'panel',
    sessionRoutes(panel, sessions),
    twoFactorRoutes(twoFactor, panel, sessions, accounts.forgetCredentials),
  );
  host.routes?.guard('account', (scope) => scope.addHook('onRequest', accountAuth(accounts.authenticate, sessions)));
  const { smtpUrl, mailFrom } = settings.mail;
  const mail =
    smtpUrl !== undefined && mailFrom !== undefined
      ? { send: smtpMailer(smtpUrl, MEMBER_MAIL_TIMEOUT_MS), from: mailFrom }
      : undefined;
  const { publicBaseUrl } = settings.server;
  const forgetCredentials = accounts.forgetCredentials;
  const members = createMembersService({
    db,
    clock,
    mail,
    publicBaseUrl,
    memberLimit: settings.accounts.membersPerAccount,
    forgetCredentials,
    passwords,
    record,
  });
  const resets = createPasswordResetService({
    db,
    clock,
    mail,
    publicBaseUrl,
    limiter: loginLimiter,
    forgetCredentials,
    passwords,
  });
  host.routes?.add('panel', memberPanelRoutes(members, resets, panel, sessions));
  const roles = createRolesService({ db, clock, forgetCredentials, record });
  host.routes?.add(
    'account',
    authTokenRevokeRoutes(accounts),
    apiKeyRoutes(accounts),
    memberRoutes(members),
    roleRoutes(roles),
    securityRoutes(accounts),
  );
  host.routes?.add('admin', adminRoutes(accounts));
  return accounts;
}
