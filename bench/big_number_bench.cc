// varint and decimal costs (docs/PERFORMANCE.md, issue 20): the work the
// types layer and CQL arithmetic do per value, to weigh the arbitrary
// precision library behind BigInteger/BigDecimal against the hand-written
// code it replaced.
//  - BM_VarintDecode / BM_VarintEncode: Cassandra's two's complement bytes
//    to a BigInteger and back, for a 64-bit value and a 40-digit one.
//  - BM_VarintText / BM_VarintParse: decimal text out (SELECT) and in (literals).
//  - BM_DecimalText: BigDecimal.toString of a stored decimal.
//  - BM_DecimalCompare: the comparator clustering and min/max use.
//  - BM_VarintAdd / BM_VarintMultiply / BM_DecimalAdd / BM_DecimalDivide:
//    `a op b` through the CQL term evaluator; an operation the build cannot
//    compute is reported as skipped.
#include <benchmark/benchmark.h>

#include <string>

#include "cassette/value.h"
#include "engine/cql/term_arithmetic.h"
#include "engine/types/big_decimal.h"
#include "engine/types/big_integer.h"
#include "engine/types/type_codec.h"

namespace cassette {
namespace {

const char* kSmall = "-4611686018427387905";                      // fits 64 bits
const char* kLarge = "1234567890123456789012345678901234567890";  // 40 digits

std::string VarintBytes(const char* text) {
  BigInteger v;
  BigInteger::FromDecimal(text, &v);
  return v.ToTwosComplement();
}

std::string DecimalBytes(const char* text) {
  BigDecimal d;
  BigDecimal::FromText(text, &d);
  return d.Serialize();
}

const char* Digits(const benchmark::State& state) { return state.range(0) == 0 ? kSmall : kLarge; }

void BM_VarintDecode(benchmark::State& state) {
  const std::string bytes = VarintBytes(Digits(state));
  for (auto _ : state) benchmark::DoNotOptimize(BigInteger::FromTwosComplement(bytes));
}
BENCHMARK(BM_VarintDecode)->Arg(0)->Arg(1);

void BM_VarintEncode(benchmark::State& state) {
  const BigInteger v = BigInteger::FromTwosComplement(VarintBytes(Digits(state)));
  for (auto _ : state) benchmark::DoNotOptimize(v.ToTwosComplement());
}
BENCHMARK(BM_VarintEncode)->Arg(0)->Arg(1);

void BM_VarintText(benchmark::State& state) {
  const BigInteger v = BigInteger::FromTwosComplement(VarintBytes(Digits(state)));
  for (auto _ : state) benchmark::DoNotOptimize(v.ToDecimal());
}
BENCHMARK(BM_VarintText)->Arg(0)->Arg(1);

void BM_VarintParse(benchmark::State& state) {
  const std::string text = Digits(state);
  for (auto _ : state) {
    BigInteger v;
    benchmark::DoNotOptimize(BigInteger::FromDecimal(text, &v));
    benchmark::DoNotOptimize(v);
  }
}
BENCHMARK(BM_VarintParse)->Arg(0)->Arg(1);

void BM_DecimalText(benchmark::State& state) {
  const std::string bytes = DecimalBytes("-12345678901234567890.0001234");
  for (auto _ : state) benchmark::DoNotOptimize(BigDecimal::FromSerialized(bytes).ToText());
}
BENCHMARK(BM_DecimalText);

void BM_DecimalCompare(benchmark::State& state) {
  const std::string a = DecimalBytes("12345.678900");
  const std::string b = DecimalBytes("12345.6789001");
  for (auto _ : state) benchmark::DoNotOptimize(CompareValues(DataType::Decimal(), a, b));
}
BENCHMARK(BM_DecimalCompare);

void RunOperation(benchmark::State& state, const char* op, const Value& a, const Value& b) {
  if (!cql::ApplyOperation(op, a, b).ok()) {
    state.SkipWithError("operation not supported by this build");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(cql::ApplyOperation(op, a, b));
}

void BM_VarintAdd(benchmark::State& state) {
  const Value a = Value::FromBytes(DataType::Varint(), VarintBytes(Digits(state)));
  const Value b = Value::FromBytes(DataType::Varint(), VarintBytes("1000003"));
  RunOperation(state, "+", a, b);
}
BENCHMARK(BM_VarintAdd)->Arg(0)->Arg(1);

void BM_VarintMultiply(benchmark::State& state) {
  const Value a = Value::FromBytes(DataType::Varint(), VarintBytes(Digits(state)));
  const Value b = Value::FromBytes(DataType::Varint(), VarintBytes("3"));
  RunOperation(state, "*", a, b);
}
BENCHMARK(BM_VarintMultiply)->Arg(0)->Arg(1);

void BM_DecimalAdd(benchmark::State& state) {
  const Value a = Value::FromBytes(DataType::Decimal(), DecimalBytes("12345.6789"));
  const Value b = Value::FromBytes(DataType::Decimal(), DecimalBytes("0.001"));
  RunOperation(state, "+", a, b);
}
BENCHMARK(BM_DecimalAdd);

void BM_DecimalDivide(benchmark::State& state) {
  const Value a = Value::FromBytes(DataType::Decimal(), DecimalBytes("12345.6789"));
  const Value b = Value::FromBytes(DataType::Decimal(), DecimalBytes("7"));
  RunOperation(state, "/", a, b);
}
BENCHMARK(BM_DecimalDivide);

}  // namespace
}  // namespace cassette
