// Preloaded (`node --import`) into every child of `npm start`, Ponder's included, so plain
// JavaScript. If the supervisor dies without stopping us (kill -9), a child would live on,
// holding its port and its database connections; instead it notices its parent is gone and
// stops itself gracefully.
const parent = process.ppid;
const timer = setInterval(() => {
  if (process.ppid !== parent) {
    clearInterval(timer);
    process.kill(process.pid, "SIGTERM");
  }
}, 1000);
timer.unref();

// A closed terminal sends SIGHUP to its whole process group, us included. The supervisor gets
// it too and stops us in order (SIGTERM); dying on the spot here would look like a crash to it.
process.on("SIGHUP", () => {});
