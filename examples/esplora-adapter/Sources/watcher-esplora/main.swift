import EsploraAdapter
import WatcherApp

await WatcherCommand.main(providers: [EsploraPlugin.self])
