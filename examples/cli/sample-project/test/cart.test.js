'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { setTimeout: delay } = require('node:timers/promises');
const { Cart } = require('../src/cart');

test('an empty cart costs nothing', () => {
  assert.equal(new Cart().total(), 0);
});

test('a cart sums its lines', () => {
  const cart = new Cart().add('tea', 450, 2).add('cake', 325);
  assert.equal(cart.total(), 1225);
});

test('a 25% discount applies to the whole cart', () => {
  const cart = new Cart().add('tea', 400, 5).setDiscount(25);
  assert.equal(cart.total(), 1500);
});

test('checkout of a large order stays consistent', async () => {
  // Simulates a slow checkout so the demo has a running session to follow.
  const cart = new Cart();
  for (let index = 0; index < 20; index += 1) {
    cart.add(`sku-${index}`, 100 + index, 2);
    await delay(75);
  }
  cart.setDiscount(50);
  assert.equal(cart.total(), Math.round(cart.subtotal() / 2));
});
