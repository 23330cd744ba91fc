#include "io/parquet/file_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/error.hpp"
#include "gpu/file_mapping.hpp"

namespace kestrel::io::parquet {

std::shared_ptr<RandomAccessFile> RandomAccessFile::open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError("cannot open '" + path + "': " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    throw IoError("cannot stat '" + path + "': " + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw IoError("'" + path + "' is not a regular file");
  }
  return std::shared_ptr<RandomAccessFile>(new RandomAccessFile(path, fd, static_cast<uint64_t>(st.st_size)));
}

std::shared_ptr<RandomAccessFile> RandomAccessFile::from_memory(std::string name,
                                                                std::shared_ptr<const std::vector<uint8_t>> bytes) {
  uint64_t size = bytes->size();
  std::shared_ptr<RandomAccessFile> f(new RandomAccessFile(std::move(name), -1, size));
  f->memory_ = std::move(bytes);
  return f;
}

RandomAccessFile::~RandomAccessFile() {
  mapping_.reset();  // unregistered and unmapped before the descriptor closes
  if (fd_ >= 0) ::close(fd_);
}

gpu::FileMapping* RandomAccessFile::dma_mapping() const {
  std::call_once(mapping_once_, [this] {
    if (fd_ >= 0) mapping_ = gpu::FileMapping::create(fd_, size_, path_);
  });
  return mapping_.get();
}

void RandomAccessFile::read(uint64_t offset, size_t length, uint8_t* out) const {
  if (offset > size_ || length > size_ - offset) {
    throw InvalidInput("read of " + std::to_string(length) + " bytes at " + std::to_string(offset) +
                       " is outside the file of " + std::to_string(size_) + " bytes");
  }
  if (memory_) {
    if (length > 0) std::memcpy(out, memory_->data() + offset, length);
    return;
  }
  size_t done = 0;
  while (done < length) {
    ssize_t n = ::pread(fd_, out + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError("cannot read '" + path_ + "': " + std::strerror(errno));
    if (n == 0) throw IoError("'" + path_ + "' ended early (was it truncated while being read?)");
    done += static_cast<size_t>(n);
  }
}

}  // namespace kestrel::io::parquet
