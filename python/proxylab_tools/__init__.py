"""proxylab front end: set-up, build, run, demo, test, and the experiment harness."""
