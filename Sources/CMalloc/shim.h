// glibc's <malloc.h> (mallopt, malloc_usable_size), which Swift's Glibc module leaves out. Nothing else belongs here.
#if defined(__linux__)
#include <malloc.h>
#endif
