import type { SecretBox } from '../base/secret-box.js';
import type { ChannelCredentials } from './channel-adapter.js';

// A channel's credentials are kept as one sealed JSON value (sales_channels.sealed): the intake and
// the write-back open them the same way.

export const sealCredentials = (box: SecretBox, credentials: ChannelCredentials): string =>
  box.seal(JSON.stringify(credentials));

export const openCredentials = (box: SecretBox, sealed: string): ChannelCredentials =>
  JSON.parse(box.open(sealed)) as ChannelCredentials;
