import { errorCodes } from '../../domain/errors.js';

export const CHARGE_ERRORS = errorCodes({
  weight_discrepancy_not_found: ['not_found', 'No weight discrepancy of the account has this id.'],
  evidence_image_not_found: ['not_found', 'The weight discrepancy has no evidence image at this position.'],
  weight_report_account_not_found: ['not_found', "The account an operator's weight report names does not exist."],
  weight_report_invalid: [
    'unprocessable',
    'The weight report cannot be read as a whole (no header, an unnamed column, too many rows, an unclosed quote); nothing was applied.',
  ],
  weight_unit_unstated: [
    'unprocessable',
    "The weight report's charged weight column states no unit and its weights look like kilograms; nothing was applied.",
  ],
  discrepancy_not_open: ['conflict', 'Only an open weight discrepancy can be accepted or disputed.'],
  discrepancy_not_disputed: ['conflict', 'Only a disputed weight discrepancy can be won or lost.'],
  dispute_window_closed: ['conflict', "The discrepancy's dispute window has closed: the charge is accepted."],
  dispute_evidence_invalid: [
    'unprocessable',
    "A dispute's photos or comment break a rule (1 to 5 images of at most 2 MiB, PNG/JPEG/WebP/GIF; a comment); `details` names each.",
  ],
});
