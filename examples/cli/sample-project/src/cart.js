'use strict';

const { lineTotal, applyDiscount } = require('./pricing');

/** A shopping cart: lines of { sku, unitPrice, quantity } and an optional discount. */
class Cart {
  constructor() {
    this.lines = [];
    this.discountPercent = 0;
  }

  add(sku, unitPrice, quantity = 1) {
    this.lines.push({ sku, unitPrice, quantity });
    return this;
  }

  setDiscount(percent) {
    this.discountPercent = percent;
    return this;
  }

  subtotal() {
    return this.lines.reduce((sum, line) => sum + lineTotal(line), 0);
  }

  total() {
    return Math.round(applyDiscount(this.subtotal(), this.discountPercent));
  }
}

module.exports = { Cart };
