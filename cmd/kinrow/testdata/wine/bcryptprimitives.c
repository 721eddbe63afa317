/*
 * A stand-in bcryptprimitives.dll for wine versions that lack it (Debian
 * bookworm's wine 8.0): Go's Windows runtime (1.24 and later) loads
 * ProcessPrng from it at start-up and dies without it. ProcessPrng fills a
 * buffer with random bytes; here RtlGenRandom (advapi32's
 * SystemFunction036) does, in chunks it accepts. Built by make test-wine
 * with Debian's mingw-w64 (x86_64-w64-mingw32-gcc) into the test's wine
 * prefix; never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
	while (size > 0) {
		ULONG n = size > 0x10000000 ? 0x10000000 : (ULONG)size;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		size -= n;
	}
	return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
	(void)inst;
	(void)reason;
	(void)reserved;
	return TRUE;
}
