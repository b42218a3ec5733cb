// The scans are static inline functions in include/CByteScan.h; this file gives the target a source to build.
#include "CByteScan.h"
