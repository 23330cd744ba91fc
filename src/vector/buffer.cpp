#include "vector/buffer.hpp"

namespace kestrel {

std::shared_ptr<Buffer> Buffer::allocate(size_t bytes, gpu::MemoryResource& mr, gpu::Stream stream) {
  void* data = mr.allocate(bytes, stream);
  return std::shared_ptr<Buffer>(new Buffer(data, bytes, &mr, stream));
}

Buffer::~Buffer() { mr_->deallocate(data_, size_, stream_); }

}  // namespace kestrel
