import WatcherApp

await WatcherCommand.runMain()
