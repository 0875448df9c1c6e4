// emu.cpp — the many-searches kernel compiled for the host (one lane per search), so the tests
// run the device engine's search code on machines without a GPU (src/engine/gpu/emu.rs).
#define YS_EMU 1
#include "search.cu"
