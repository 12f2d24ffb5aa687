import WatcherApp

// Before anything else: a SIGHUP (a reload) that comes while the process starts must not end it (HangupGate).
HangupGate.close()
await WatcherCommand.runMain()
