'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { lineTotal, applyDiscount } = require('../src/pricing');

test('lineTotal multiplies price by quantity', () => {
  assert.equal(lineTotal({ sku: 'tea', unitPrice: 450, quantity: 3 }), 1350);
});

test('applyDiscount takes a percentage off', () => {
  assert.equal(applyDiscount(2000, 10), 1800);
  assert.equal(applyDiscount(999, 0), 999);
  assert.equal(applyDiscount(500, 100), 0);
});

test('applyDiscount rejects percentages outside 0-100', () => {
  assert.throws(() => applyDiscount(100, 120), RangeError);
});
