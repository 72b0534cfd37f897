// Small progressive enhancements; the site works without them.
"use strict";
