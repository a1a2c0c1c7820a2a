import Foundation

/// Which sanitizer runtimes are in the process, asked of the dynamic linker: each exports its interface.
public enum Sanitizers {
    /// LeakSanitizer, part of every `-sanitize=address` build.
    public static let leakChecker = dlsym(nil, "__lsan_do_leak_check") != nil

    /// AddressSanitizer or ThreadSanitizer: each brings an allocator that must see every allocation and free.
    public static let allocationChecker = dlsym(nil, "__asan_init") != nil || dlsym(nil, "__tsan_init") != nil
}
