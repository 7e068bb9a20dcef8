import { errorCodes } from '../../domain/errors.js';

export const COD_LEDGER_ERRORS = errorCodes({
  cod_remittance_file_invalid: [
    'unprocessable',
    'The COD remittance file cannot be read as a whole (no header, a missing column, too many lines, an unclosed quote); nothing was applied.',
  ],
  remittance_account_not_found: ['not_found', "The account an operator's remittance file names does not exist."],
});
