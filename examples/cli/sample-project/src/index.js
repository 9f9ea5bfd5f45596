'use strict';

module.exports = { ...require('./cart'), ...require('./pricing') };
