import { configure } from '@testing-library/react';

// findBy/waitFor wait up to 5 s instead of 1 s: the web tests run beside the integration tests and a
// loaded machine took over a second to render a settings tab. A test that waits for something that
// never comes still fails, only later.
configure({ asyncUtilTimeout: 5_000 });
