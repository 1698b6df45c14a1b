// ArenaSkipList: a sorted list with lock-free readers and one writer at a
// time, its nodes in a MemtableArena (never freed while the list lives).
//
// Keys are small values (pointers to arena records). The list compares a
// stored Key with a Lookup (what callers search by) through
// `int Comparator::operator()(const Key&, const Lookup&) const`.
// Equal keys are allowed; a new key goes before the keys equal to it, so a
// run of equal keys is ordered newest first.
//
// Thread safety: Locate/InsertAt/Insert need external synchronization (one
// writer at a time). Everything else may run concurrently with the writer:
// a node is fully built before the release-store that links it, and readers
// follow links with acquire loads, so a reader sees either the whole node or
// no node.
//
// Writers that append (a key greater than every stored key) or prepend (a
// key not greater than the first) skip the search: the list remembers its
// last node at every level, and the first is the head's successor.
#pragma once

#include <atomic>
#include <cassert>
#include <cstdint>
#include <new>
#include <type_traits>

#include "engine/memtable/memtable_arena.h"

namespace cassette {

template <typename Key, typename Lookup, class Comparator>
class ArenaSkipList {
 public:
  // Branching factor 4: 4^12 keys before searches start to degrade.
  static constexpr int kMaxHeight = 12;

  class Node;

  // Where a key goes: the node after which it is linked, at every level.
  struct Splice {
    Node* prev[kMaxHeight];
  };

  ArenaSkipList(Comparator cmp, MemtableArena* arena)
      : cmp_(cmp), arena_(arena), head_(NewNode(Key(), kMaxHeight)) {
    for (int i = 0; i < kMaxHeight; ++i) tail_[i] = head_;
  }
  ArenaSkipList(const ArenaSkipList&) = delete;
  ArenaSkipList& operator=(const ArenaSkipList&) = delete;

  // Writer. Fills `splice` for inserting a key equal to `target` and
  // returns the first node >= target (nullptr when none): the newest of
  // the keys equal to target, if any.
  Node* Locate(const Lookup& target, Splice* splice) {
    Node* last = tail_[0];
    if (last != head_ && cmp_(last->key, target) < 0) {
      for (int i = 0; i < kMaxHeight; ++i) splice->prev[i] = tail_[i];
      return nullptr;
    }
    // A key at or before the first one goes right after the head at every
    // level: what a time series in descending clustering order writes.
    // (A single node is the last one, which the check above found >= target.)
    Node* first = head_->NextRelaxed(0);
    if (first != nullptr && (first == last || cmp_(first->key, target) >= 0)) {
      for (int i = 0; i < kMaxHeight; ++i) splice->prev[i] = head_;
      return first;
    }
    int level = MaxHeight() - 1;
    for (int i = level + 1; i < kMaxHeight; ++i) splice->prev[i] = head_;
    Node* x = head_;
    while (true) {
      Node* next = x->NextRelaxed(level);
      if (next != nullptr && cmp_(next->key, target) < 0) {
        x = next;
      } else {
        splice->prev[level] = x;
        if (level == 0) return next;
        --level;
      }
    }
  }

  // Writer. Links `key` at the place `splice` describes. REQUIRES: the list
  // has not changed since Locate filled `splice`.
  void InsertAt(const Splice& splice, const Key& key) {
    int height = RandomHeight();
    // Readers that see the new height before the node find null links at
    // the new levels of head_, which is a valid (shorter) list.
    if (height > MaxHeight()) max_height_.store(height, std::memory_order_relaxed);
    Node* x = NewNode(key, height);
    for (int i = 0; i < height; ++i) {
      Node* next = splice.prev[i]->NextRelaxed(i);
      x->SetNextRelaxed(i, next);
      splice.prev[i]->SetNext(i, x);  // publishes x at this level
      if (next == nullptr) tail_[i] = x;
    }
  }

  // Writer. Locate + InsertAt.
  void Insert(const Key& key, const Lookup& lookup) {
    Splice splice;
    Locate(lookup, &splice);
    InsertAt(splice, key);
  }

  // A position in the list. Cheap to copy; valid while the list lives.
  class Iterator {
   public:
    explicit Iterator(const ArenaSkipList* list) : list_(list) {}
    bool Valid() const { return node_ != nullptr; }
    // REQUIRES: Valid().
    const Key& key() const { return node_->key; }
    void Next() { node_ = node_->Next(0); }
    // A scan visits nodes in key order, which is not the order the arena
    // allocated them in: each step would wait on memory. Asks the CPU to
    // fetch the node after the next one and the next one's key (a pointer
    // key's target), the next node itself having been asked for a step
    // earlier. REQUIRES: Valid().
    // The next node is loaded with acquire, as Next() does: its links are
    // read here, and a writer may have just published it (a relaxed load
    // would read them unordered with their initialization; ThreadSanitizer
    // found it). On x86 both loads are the same instruction.
    void PrefetchAhead() const {
      const Node* next = node_->Next(0);
      if (next == nullptr) return;
      __builtin_prefetch(next->NextRelaxed(0));
      if constexpr (std::is_pointer_v<Key>) __builtin_prefetch(next->key);
    }
    void SeekToFirst() { node_ = list_->head_->Next(0); }
    void SeekToLast() { node_ = list_->FindLast(); }
    // First node >= target.
    void Seek(const Lookup& target) { node_ = list_->FindGreaterOrEqual(target); }
    // Last node < target.
    void SeekBefore(const Lookup& target) { node_ = list_->FindLessThan(target); }

   private:
    const ArenaSkipList* list_;
    Node* node_ = nullptr;
  };

  class Node {
   public:
    explicit Node(const Key& k) : key(k) {}
    Key const key;

    Node* Next(int level) const { return links()[level].load(std::memory_order_acquire); }
    void SetNext(int level, Node* x) { links()[level].store(x, std::memory_order_release); }
    Node* NextRelaxed(int level) const { return links()[level].load(std::memory_order_relaxed); }
    void SetNextRelaxed(int level, Node* x) { links()[level].store(x, std::memory_order_relaxed); }

   private:
    friend class ArenaSkipList;
    // The links live right after the node, one per level of its height.
    std::atomic<Node*>* links() const {
      return reinterpret_cast<std::atomic<Node*>*>(
          reinterpret_cast<char*>(const_cast<Node*>(this)) + sizeof(Node));
    }
  };

 private:
  static_assert(sizeof(Node) % alignof(std::atomic<Node*>) == 0,
                "links must be aligned after the node");

  int MaxHeight() const { return max_height_.load(std::memory_order_relaxed); }

  Node* NewNode(const Key& key, int height) {
    char* mem = arena_->AllocateAligned(sizeof(Node) + sizeof(std::atomic<Node*>) * height);
    Node* node = new (mem) Node(key);
    auto* links = reinterpret_cast<std::atomic<Node*>*>(mem + sizeof(Node));
    for (int i = 0; i < height; ++i) new (&links[i]) std::atomic<Node*>(nullptr);
    return node;
  }

  int RandomHeight() {
    // xorshift64: the writer's private generator; heights need no quality
    // beyond being independent of the keys.
    rnd_ ^= rnd_ << 13;
    rnd_ ^= rnd_ >> 7;
    rnd_ ^= rnd_ << 17;
    int height = 1;
    uint64_t bits = rnd_;
    while (height < kMaxHeight && (bits & 3) == 0) {
      ++height;
      bits >>= 2;
    }
    return height;
  }

  Node* FindGreaterOrEqual(const Lookup& target) const {
    Node* x = head_;
    int level = MaxHeight() - 1;
    while (true) {
      Node* next = x->Next(level);
      if (next != nullptr && cmp_(next->key, target) < 0) {
        x = next;
      } else if (level == 0) {
        return next;
      } else {
        --level;
      }
    }
  }

  Node* FindLessThan(const Lookup& target) const {
    Node* x = head_;
    int level = MaxHeight() - 1;
    while (true) {
      Node* next = x->Next(level);
      if (next != nullptr && cmp_(next->key, target) < 0) {
        x = next;
      } else if (level == 0) {
        return x == head_ ? nullptr : x;
      } else {
        --level;
      }
    }
  }

  Node* FindLast() const {
    Node* x = head_;
    int level = MaxHeight() - 1;
    while (true) {
      Node* next = x->Next(level);
      if (next != nullptr) {
        x = next;
      } else if (level == 0) {
        return x == head_ ? nullptr : x;
      } else {
        --level;
      }
    }
  }

  Comparator const cmp_;
  MemtableArena* const arena_;
  Node* const head_;
  std::atomic<int> max_height_{1};
  // Writer-only state.
  Node* tail_[kMaxHeight];  // last node at each level (head_ when none)
  uint64_t rnd_ = 0x9e3779b97f4a7c15ULL;
};

}  // namespace cassette
