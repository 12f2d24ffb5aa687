#ifndef WATCHER_CQRENCODE_SHIM_H
#define WATCHER_CQRENCODE_SHIM_H
// Debian's libqrencode-dev (libqrencode 4.1): the QR codes of payment requests' bitcoin: URIs. Only WatcherQR's
// QRCode calls into it.
#include <qrencode.h>
#endif
