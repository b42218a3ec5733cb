#ifndef BLETRACE_CPCAP_SHIM_H
#define BLETRACE_CPCAP_SHIM_H
#include <pcap/pcap.h>
#endif
