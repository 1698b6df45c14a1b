#include "engine/util/sha2.h"

#include <array>
#include <cctype>
#include <cstdint>

namespace cassette {
namespace {

constexpr std::array<uint32_t, 64> kRounds256 = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr std::array<uint64_t, 80> kRounds512 = {
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
    0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
    0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
    0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
    0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
    0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
    0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
    0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
    0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
    0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
    0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817};

// The two SHA-2 families differ in word size, rounds and rotation amounts.
struct Sha256Family {
  using Word = uint32_t;
  static constexpr size_t kBlock = 64;
  static constexpr size_t kLengthBytes = 8;
  static constexpr int kRoundCount = 64;
  static Word Round(int i) { return kRounds256[static_cast<size_t>(i)]; }
  static constexpr int kSigma0[3] = {7, 18, 3}, kSigma1[3] = {17, 19, 10};
  static constexpr int kSum0[3] = {2, 13, 22}, kSum1[3] = {6, 11, 25};
};

struct Sha512Family {
  using Word = uint64_t;
  static constexpr size_t kBlock = 128;
  static constexpr size_t kLengthBytes = 16;
  static constexpr int kRoundCount = 80;
  static Word Round(int i) { return kRounds512[static_cast<size_t>(i)]; }
  static constexpr int kSigma0[3] = {1, 8, 7}, kSigma1[3] = {19, 61, 6};
  static constexpr int kSum0[3] = {28, 34, 39}, kSum1[3] = {14, 18, 41};
};

template <typename Word>
Word RotateRight(Word x, int n) {
  return static_cast<Word>((x >> n) | (x << (sizeof(Word) * 8 - static_cast<size_t>(n))));
}

template <typename F>
void Compress(std::array<typename F::Word, 8>* state, const unsigned char* block) {
  using Word = typename F::Word;
  constexpr size_t kWordBytes = sizeof(Word);
  std::array<Word, 80> w{};
  for (size_t i = 0; i < 16; ++i) {
    Word word = 0;
    for (size_t b = 0; b < kWordBytes; ++b) word = (word << 8) | block[i * kWordBytes + b];
    w[i] = word;
  }
  for (int i = 16; i < F::kRoundCount; ++i) {
    const Word a = w[i - 15], b = w[i - 2];
    const Word s0 =
        RotateRight(a, F::kSigma0[0]) ^ RotateRight(a, F::kSigma0[1]) ^ (a >> F::kSigma0[2]);
    const Word s1 =
        RotateRight(b, F::kSigma1[0]) ^ RotateRight(b, F::kSigma1[1]) ^ (b >> F::kSigma1[2]);
    w[i] = static_cast<Word>(w[i - 16] + s0 + w[i - 7] + s1);
  }
  std::array<Word, 8> v = *state;
  for (int i = 0; i < F::kRoundCount; ++i) {
    const Word s1 = RotateRight(v[4], F::kSum1[0]) ^ RotateRight(v[4], F::kSum1[1]) ^
                    RotateRight(v[4], F::kSum1[2]);
    const Word choose = (v[4] & v[5]) ^ (~v[4] & v[6]);
    const Word t1 = static_cast<Word>(v[7] + s1 + choose + F::Round(i) + w[i]);
    const Word s0 = RotateRight(v[0], F::kSum0[0]) ^ RotateRight(v[0], F::kSum0[1]) ^
                    RotateRight(v[0], F::kSum0[2]);
    const Word majority = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
    const Word t2 = static_cast<Word>(s0 + majority);
    v = {static_cast<Word>(t1 + t2),   v[0], v[1], v[2],
         static_cast<Word>(v[3] + t1), v[4], v[5], v[6]};
  }
  for (size_t i = 0; i < 8; ++i) (*state)[i] = static_cast<Word>((*state)[i] + v[i]);
}

// Pads (a 1 bit, zeros, the length in bits, big-endian), compresses and
// returns the first `digest_bytes` of the state.
template <typename F>
std::string Digest(std::array<typename F::Word, 8> state, std::string_view data,
                   size_t digest_bytes) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
  const size_t full = data.size() / F::kBlock * F::kBlock;
  for (size_t offset = 0; offset < full; offset += F::kBlock) Compress<F>(&state, bytes + offset);
  std::string tail(data.substr(full));
  tail.push_back(static_cast<char>(0x80));
  while (tail.size() % F::kBlock != F::kBlock - F::kLengthBytes) tail.push_back('\0');
  const uint64_t bits = static_cast<uint64_t>(data.size()) * 8;
  tail.append(F::kLengthBytes - 8, '\0');
  for (int shift = 56; shift >= 0; shift -= 8) tail.push_back(static_cast<char>(bits >> shift));
  for (size_t offset = 0; offset < tail.size(); offset += F::kBlock) {
    Compress<F>(&state, reinterpret_cast<const unsigned char*>(tail.data()) + offset);
  }
  std::string digest;
  for (auto word : state) {
    for (int shift = static_cast<int>(sizeof(word) * 8) - 8; shift >= 0; shift -= 8) {
      digest.push_back(static_cast<char>(word >> shift));
    }
  }
  digest.resize(digest_bytes);
  return digest;
}

}  // namespace

std::string Sha224(std::string_view data) {
  return Digest<Sha256Family>({0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31,
                               0x68581511, 0x64f98fa7, 0xbefa4fa4},
                              data, 28);
}

std::string Sha256(std::string_view data) {
  return Digest<Sha256Family>({0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f,
                               0x9b05688c, 0x1f83d9ab, 0x5be0cd19},
                              data, 32);
}

std::string Sha384(std::string_view data) {
  return Digest<Sha512Family>(
      {0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
       0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4},
      data, 48);
}

std::string Sha512(std::string_view data) {
  return Digest<Sha512Family>(
      {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
       0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179},
      data, 64);
}

std::optional<std::string> Sha2Digest(std::string_view algorithm, std::string_view data) {
  std::string name(algorithm);
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (name == "SHA-224") return Sha224(data);
  if (name == "SHA-256") return Sha256(data);
  if (name == "SHA-384") return Sha384(data);
  if (name == "SHA-512") return Sha512(data);
  return std::nullopt;
}

}  // namespace cassette
