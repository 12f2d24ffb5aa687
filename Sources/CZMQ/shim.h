#ifndef WATCHER_CZMQ_SHIM_H
#define WATCHER_CZMQ_SHIM_H
// Debian's libzmq3-dev (libzmq 4.3): the ZMQ subscriber of the bitcoind provider and the simnet's publisher.
// Only WatcherZMQ's ZMQSocket calls into it.
#include <zmq.h>
#endif
