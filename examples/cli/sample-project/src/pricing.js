'use strict';

/**
 * Pricing rules of the shop. Amounts are in cents.
 */

/** The price of one cart line. */
function lineTotal(line) {
  return line.unitPrice * line.quantity;
}

/** Applies a percentage discount (0-100) to an amount. */
function applyDiscount(amount, percent) {
  if (percent < 0 || percent > 100) {
    throw new RangeError('percent must be between 0 and 100');
  }
  return amount - percent;
}

module.exports = { lineTotal, applyDiscount };
