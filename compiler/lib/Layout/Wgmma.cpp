#include "tgpu/Layout/Wgmma.h"

#include "tgpu/Layout/Encodings.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

using namespace tgpu::layout;

namespace {

llvm::Error err(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

} // namespace

uint64_t WgmmaOperandDesc::encode(uint32_t start) const {
  uint64_t mode = swizzleBytes == 128  ? 1
                  : swizzleBytes == 64 ? 2
                  : swizzleBytes == 32 ? 3
                                       : 0;
  auto field = [](int64_t bytes) { return uint64_t(bytes >> 4) & 0x3fff; };
  return field(start) | field(leadingByteOffset) << 16 |
         field(strideByteOffset) << 32 | mode << 62;
}

int64_t tgpu::layout::wgmmaElementAddress(const WgmmaOperandDesc &d,
                                          int64_t start, int mn, int k,
                                          int elemBytes) {
  // The contiguous dim runs in 16-byte chunks of `perChunk` elements; the
  // other dim in rows, 8 to a core matrix.
  int perChunk = 16 / elemBytes;
  int along = d.mnMajor ? mn : k;
  int across = d.mnMajor ? k : mn;
  int64_t chunk = along / perChunk, within = along % perChunk;
  int64_t row = across % 8, rowGroup = across / 8;
  int64_t addr = start + within * elemBytes;
  if (d.swizzleBytes == 0) {
    // Core matrices of 8 rows x 16 bytes, each 128 contiguous bytes. K-major:
    // LBO steps along K (chunks), SBO along MN (row groups); MN-major the
    // other way round.
    int64_t chunkStride = d.mnMajor ? d.strideByteOffset : d.leadingByteOffset;
    int64_t groupStride = d.mnMajor ? d.leadingByteOffset : d.strideByteOffset;
    return addr + row * 16 + chunk * chunkStride + rowGroup * groupStride;
  }
  // Rows of swizzleBytes; the chunks of one row contiguous; row groups at
  // SBO; past a row's width, the next block of chunks at LBO.
  int64_t chunksPerRow = d.swizzleBytes / 16;
  addr += row * d.swizzleBytes + rowGroup * d.strideByteOffset +
          (chunk % chunksPerRow) * 16 +
          (chunk / chunksPerRow) * d.leadingByteOffset;
  int64_t mask = chunksPerRow - 1;
  return addr ^ (((addr >> 7) & mask) << 4);
}

int64_t tgpu::layout::operandByteOffset(const LinearLayout &toOffset,
                                        llvm::StringRef mnDim,
                                        llvm::StringRef kDim, int mn, int k,
                                        int elemBytes) {
  int64_t offset = sharedElementOffset(
      toOffset, {{std::string(mnDim), mn}, {std::string(kDim), k}});
  return offset < 0 ? -1 : offset * elemBytes;
}

llvm::Expected<WgmmaOperandDesc>
tgpu::layout::planWgmmaOperand(const LinearLayout &toOffset,
                               llvm::StringRef mnDim, llvm::StringRef kDim,
                               int tileMN, int tileK, int elemBits) {
  if (elemBits % 8 != 0 || elemBits > 32 || elemBits == 0)
    return err("wgmma operands have 8-, 16- or 32-bit elements, not " +
               llvm::Twine(elemBits) + "-bit ones");
  if (!toOffset.hasInDim(mnDim) || !toOffset.hasInDim(kDim) ||
      !toOffset.hasOutDim("offset"))
    return err("the buffer map needs in dims " + mnDim + " and " + kDim +
               " and an offset out dim");
  int elemBytes = elemBits / 8;
  int perChunk = 16 / elemBytes;
  int sizeMN = toOffset.getInDimSize(mnDim);
  int sizeK = toOffset.getInDimSize(kDim);
  if (tileMN % 8 != 0 || tileK * elemBytes != 32 || sizeMN % tileMN != 0 ||
      sizeK % tileK != 0)
    return err("a " + llvm::Twine(tileMN) + "x" + llvm::Twine(tileK) +
               " wgmma tile does not divide the " + llvm::Twine(sizeMN) + "x" +
               llvm::Twine(sizeK) + " buffer into whole core matrices");
  auto byteOffset = [&](int mn, int k) {
    return operandByteOffset(toOffset, mnDim, kDim, mn, k, elemBytes);
  };

  WgmmaOperandDesc d;
  if (byteOffset(0, 1) == elemBytes)
    d.mnMajor = false;
  else if (byteOffset(1, 0) == elemBytes)
    d.mnMajor = true;
  else
    return err("neither the MN nor the K dim is contiguous in the buffer");
  if (d.mnMajor && elemBits != 16)
    return err("wgmma reads " + llvm::Twine(elemBits) +
               "-bit operands K-major only, and this buffer is MN-major");
  // The contiguous dim ("along") and the other ("across").
  auto at = [&](int along, int across) {
    return d.mnMajor ? byteOffset(along, across) : byteOffset(across, along);
  };
  int sizeAlong = d.mnMajor ? sizeMN : sizeK;
  int sizeAcross = d.mnMajor ? sizeK : sizeMN;
  int tileAlong = d.mnMajor ? tileMN : tileK;
  int tileAcross = d.mnMajor ? tileK : tileMN;
  // Every tile, every element: what the instruction would read is what the
  // buffer holds there. A tile's start is its first element's offset (its
  // first row is the first of a swizzle period, so that offset is not
  // swizzled).
  auto checkTiles = [&](const WgmmaOperandDesc &d) -> std::string {
    for (int mn0 = 0; mn0 < sizeMN; mn0 += tileMN)
      for (int k0 = 0; k0 < sizeK; k0 += tileK) {
        int64_t start = byteOffset(mn0, k0);
        if (start < 0 || start % 16 != 0)
          return "the tile at [" + std::to_string(mn0) + ", " +
                 std::to_string(k0) + "] does not start on a 16-byte boundary";
        for (int mn = 0; mn < tileMN; ++mn)
          for (int k = 0; k < tileK; ++k) {
            int64_t want = byteOffset(mn0 + mn, k0 + k);
            int64_t got = wgmmaElementAddress(d, start, mn, k, elemBytes);
            if (want != got)
              return "with " +
                     (d.swizzleBytes
                          ? std::to_string(d.swizzleBytes) + "-byte swizzle"
                          : std::string("no swizzle")) +
                     " wgmma would read element [" + std::to_string(mn0 + mn) +
                     ", " + std::to_string(k0 + k) + "] at byte " +
                     std::to_string(got) + ", but the buffer holds it at " +
                     std::to_string(want);
          }
      }
    return "";
  };

  // Each swizzle mode in turn: its row width decides which offsets are
  // LBO and SBO, read where the swizzle leaves addresses alone (the first
  // row of an 8-row group); the mode whose every tile reads right wins.
  std::string why = "the contiguous dim is narrower than 16 bytes";
  for (int swizzle : {128, 64, 32, 0}) {
    d.swizzleBytes = swizzle;
    int64_t chunksPerRow = swizzle ? swizzle / 16 : 1;
    int64_t rowBytes = swizzle ? swizzle : 16;
    if (sizeAlong * elemBytes < rowBytes)
      continue;
    int64_t groupStride =
        tileAcross > 8 && sizeAcross > 8 ? at(0, 8) : 0; // next 8 rows
    int64_t blockAlong = chunksPerRow * perChunk;        // elements per row
    int64_t blockStride = tileAlong > blockAlong && sizeAlong > blockAlong
                              ? at(blockAlong, 0)
                              : 0;
    if (swizzle == 0) {
      // Per core matrix: chunks along at LBO (K-major) or SBO (MN-major).
      (d.mnMajor ? d.strideByteOffset : d.leadingByteOffset) = blockStride;
      (d.mnMajor ? d.leadingByteOffset : d.strideByteOffset) = groupStride;
    } else {
      d.leadingByteOffset = blockStride;
      d.strideByteOffset = groupStride;
    }
    if (d.leadingByteOffset % 16 || d.strideByteOffset % 16 ||
        d.leadingByteOffset < 0 || d.strideByteOffset < 0 ||
        d.leadingByteOffset >= (int64_t(1) << 18) ||
        d.strideByteOffset >= (int64_t(1) << 18)) {
      why = "the byte offsets between core matrices (" +
            std::to_string(d.leadingByteOffset) + ", " +
            std::to_string(d.strideByteOffset) +
            ") are not multiples of 16 below 2^18";
      continue;
    }
    why = checkTiles(d);
    if (why.empty())
      return d;
  }
  return err("no wgmma descriptor reads this buffer: " + llvm::Twine(why));
}
