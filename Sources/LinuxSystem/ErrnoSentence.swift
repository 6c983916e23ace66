import Glibc

extension Errno {
    /// The C name of the error, e.g. `ENOENT`, for the common ones; nil for the rest.
    package var symbol: String? {
        switch rawValue {
        case Glibc.EPERM: return "EPERM"
        case Glibc.ENOENT: return "ENOENT"
        case Glibc.EINTR: return "EINTR"
        case Glibc.EIO: return "EIO"
        case Glibc.ENXIO: return "ENXIO"
        case Glibc.EBADF: return "EBADF"
        case Glibc.EAGAIN: return "EAGAIN"
        case Glibc.ENOMEM: return "ENOMEM"
        case Glibc.EACCES: return "EACCES"
        case Glibc.EBUSY: return "EBUSY"
        case Glibc.EEXIST: return "EEXIST"
        case Glibc.ENOTDIR: return "ENOTDIR"
        case Glibc.EISDIR: return "EISDIR"
        case Glibc.EINVAL: return "EINVAL"
        case Glibc.ENFILE: return "ENFILE"
        case Glibc.EMFILE: return "EMFILE"
        case Glibc.ENOTTY: return "ENOTTY"
        case Glibc.EFBIG: return "EFBIG"
        case Glibc.ENOSPC: return "ENOSPC"
        case Glibc.EROFS: return "EROFS"
        case Glibc.ENAMETOOLONG: return "ENAMETOOLONG"
        case Glibc.ELOOP: return "ELOOP"
        case Glibc.ETIMEDOUT: return "ETIMEDOUT"
        case Glibc.EREMOTEIO: return "EREMOTEIO"
        case Glibc.ENODEV: return "ENODEV"
        case Glibc.EXDEV: return "EXDEV"
        case Glibc.EDQUOT: return "EDQUOT"
        default: return nil
        }
    }

    /// The system's sentence for the error with its name and number, e.g.
    /// `No such file or directory (ENOENT, errno 2)`.
    package var sentence: String {
        let name = symbol.map { "\($0), " } ?? ""
        return "\(description) (\(name)errno \(rawValue))"
    }
}
