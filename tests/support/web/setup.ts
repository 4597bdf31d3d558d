import { configure } from '@testing-library/react';

// findBy/waitFor wait up to 10 s instead of 1 s: the web tests run beside the integration tests, the
// speech engines and the browser, and a loaded machine took over a second (once, over five) to
// render a settings tab. A test that waits for something that never comes still fails, only later.
configure({ asyncUtilTimeout: 10_000 });
