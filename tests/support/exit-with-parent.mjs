// Preloaded (`--import`) into every Node process a test starts: it exits once the process that
// started it is gone. A test runner killed outright (SIGKILL, a CI timeout) runs no cleanup, and its
// servers and workers would otherwise keep running and take the cores from every later run.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(1);
}, 1_000).unref();
