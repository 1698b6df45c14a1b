// SmallVector<T, N>: a vector that keeps up to N elements inside the object
// and moves to the heap only when it grows past them.
//
// For containers that almost always hold very few elements and are built and
// destroyed at a high rate (a simple column's cells: exactly one), where a
// std::vector's heap block per object costs more than the elements
// themselves. The interface is the part of std::vector's the engine uses;
// iterators are pointers. Unlike std::vector, moving a SmallVector whose
// elements are inline moves them one by one (it cannot steal a pointer), so
// it suits small, cheaply movable elements.
//
// Invalidation is std::vector's: growth past the capacity invalidates every
// iterator and reference; so does moving from an inline SmallVector.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace cassette {

template <class T, size_t N>
class SmallVector {
  static_assert(N > 0, "a SmallVector without inline room is a std::vector");

 public:
  using value_type = T;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  SmallVector() noexcept : data_(inline_data()) {}
  explicit SmallVector(size_t count) : SmallVector() { resize(count); }
  SmallVector(size_t count, const T& value) : SmallVector() { resize(count, value); }
  SmallVector(std::initializer_list<T> values) : SmallVector() {
    assign(values.begin(), values.end());
  }
  template <class It, class = typename std::iterator_traits<It>::iterator_category>
  SmallVector(It first, It last) : SmallVector() {
    assign(first, last);
  }
  SmallVector(const SmallVector& other) : SmallVector() { assign(other.begin(), other.end()); }
  SmallVector(SmallVector&& other) noexcept(std::is_nothrow_move_constructible_v<T>)
      : SmallVector() {
    TakeFrom(&other);
  }
  ~SmallVector() {
    DestroyAll();
    FreeHeap();
  }

  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept(std::is_nothrow_move_constructible_v<T>) {
    if (this != &other) {
      clear();
      TakeFrom(&other);
    }
    return *this;
  }
  SmallVector& operator=(std::initializer_list<T> values) {
    assign(values.begin(), values.end());
    return *this;
  }

  template <class It>
  void assign(It first, It last) {
    clear();
    if constexpr (std::is_base_of_v<std::forward_iterator_tag,
                                    typename std::iterator_traits<It>::iterator_category>) {
      reserve(static_cast<size_t>(std::distance(first, last)));
    }
    for (; first != last; ++first) emplace_back(*first);
  }

  size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  size_t capacity() const noexcept { return capacity_; }
  // True while the elements live inside the object.
  bool is_inline() const noexcept { return data_ == inline_data(); }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  iterator begin() noexcept { return data_; }
  iterator end() noexcept { return data_ + size_; }
  const_iterator begin() const noexcept { return data_; }
  const_iterator end() const noexcept { return data_ + size_; }
  const_iterator cbegin() const noexcept { return begin(); }
  const_iterator cend() const noexcept { return end(); }
  reverse_iterator rbegin() noexcept { return reverse_iterator(end()); }
  reverse_iterator rend() noexcept { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const noexcept { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const noexcept { return const_reverse_iterator(begin()); }

  T& operator[](size_t i) {
    assert(i < size_);
    return data_[i];
  }
  const T& operator[](size_t i) const {
    assert(i < size_);
    return data_[i];
  }
  T& at(size_t i) {
    if (i >= size_) throw std::out_of_range("SmallVector::at");
    return data_[i];
  }
  const T& at(size_t i) const {
    if (i >= size_) throw std::out_of_range("SmallVector::at");
    return data_[i];
  }
  T& front() { return (*this)[0]; }
  const T& front() const { return (*this)[0]; }
  T& back() { return (*this)[size_ - 1]; }
  const T& back() const { return (*this)[size_ - 1]; }

  void reserve(size_t wanted) {
    if (wanted > capacity_) Reallocate(wanted);
  }

  template <class... Args>
  T& emplace_back(Args&&... args) {
    if (size_ < capacity_) {
      T* slot = ::new (static_cast<void*>(data_ + size_)) T(std::forward<Args>(args)...);
      ++size_;
      return *slot;
    }
    // The arguments may refer to an element of this vector: build the new
    // element in the new storage before the old elements move out.
    const size_t new_capacity = GrownCapacity(size_ + 1);
    T* fresh = Allocate(new_capacity);
    T* slot;
    try {
      slot = ::new (static_cast<void*>(fresh + size_)) T(std::forward<Args>(args)...);
    } catch (...) {
      Deallocate(fresh, new_capacity);
      throw;
    }
    MoveInto(fresh, new_capacity);
    ++size_;
    return *slot;
  }
  void push_back(const T& value) { emplace_back(value); }
  void push_back(T&& value) { emplace_back(std::move(value)); }
  void pop_back() {
    assert(size_ > 0);
    data_[--size_].~T();
  }

  void clear() noexcept {
    DestroyAll();
    size_ = 0;
  }

  void resize(size_t count) {
    if (count < size_) {
      std::destroy(data_ + count, data_ + size_);
    } else {
      reserve(count);
      std::uninitialized_value_construct(data_ + size_, data_ + count);
    }
    size_ = static_cast<uint32_t>(count);
  }
  void resize(size_t count, const T& value) {
    if (count <= size_) {
      resize(count);
      return;
    }
    if (count > capacity_) {
      const T copy(value);  // `value` may be an element that is about to move
      reserve(count);
      std::uninitialized_fill(data_ + size_, data_ + count, copy);
    } else {
      std::uninitialized_fill(data_ + size_, data_ + count, value);
    }
    size_ = static_cast<uint32_t>(count);
  }

  iterator insert(const_iterator pos, const T& value) { return insert(pos, T(value)); }
  iterator insert(const_iterator pos, T&& value) {
    const size_t index = static_cast<size_t>(pos - begin());
    assert(index <= size_);
    if (index == size_) {
      emplace_back(std::move(value));
      return begin() + index;
    }
    // `value` is not an element of this vector (an rvalue, or the copy the
    // const& overload made), so growing cannot invalidate it.
    reserve(size_ + 1);
    ::new (static_cast<void*>(data_ + size_)) T(std::move(data_[size_ - 1]));
    ++size_;
    std::move_backward(data_ + index, data_ + size_ - 2, data_ + size_ - 1);
    data_[index] = std::move(value);
    return begin() + index;
  }
  template <class... Args>
  iterator emplace(const_iterator pos, Args&&... args) {
    return insert(pos, T(std::forward<Args>(args)...));
  }

  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    T* from = begin() + (first - cbegin());
    T* to = begin() + (last - cbegin());
    assert(begin() <= from && from <= to && to <= end());
    if (from != to) {
      T* new_end = std::move(to, end(), from);
      std::destroy(new_end, end());
      size_ = static_cast<uint32_t>(new_end - begin());
    }
    return from;
  }

  void swap(SmallVector& other) noexcept(std::is_nothrow_move_constructible_v<T>) {
    SmallVector tmp(std::move(other));
    other = std::move(*this);
    *this = std::move(tmp);
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

  // std::erase_if's counterpart, found by argument-dependent lookup: call it
  // unqualified. Returns the number of elements removed.
  template <class Pred>
  friend size_t erase_if(SmallVector& v, Pred pred) {
    T* new_end = std::remove_if(v.begin(), v.end(), pred);
    const size_t removed = static_cast<size_t>(v.end() - new_end);
    v.erase(new_end, v.end());
    return removed;
  }

 private:
  T* inline_data() noexcept { return reinterpret_cast<T*>(inline_); }
  const T* inline_data() const noexcept { return reinterpret_cast<const T*>(inline_); }

  static T* Allocate(size_t n) { return std::allocator<T>().allocate(n); }
  static void Deallocate(T* p, size_t n) { std::allocator<T>().deallocate(p, n); }

  size_t GrownCapacity(size_t wanted) const {
    if (wanted > kMaxSize) throw std::length_error("SmallVector too large");
    return std::min<size_t>(kMaxSize, std::max<size_t>(wanted, size_t{capacity_} * 2));
  }

  // Moves the elements into `fresh` (room for `capacity` elements) and
  // makes it the storage.
  void MoveInto(T* fresh, size_t capacity) noexcept {
    std::uninitialized_move(data_, data_ + size_, fresh);
    DestroyAll();
    FreeHeap();
    data_ = fresh;
    capacity_ = static_cast<uint32_t>(capacity);
  }
  void Reallocate(size_t wanted) {
    const size_t new_capacity = GrownCapacity(wanted);
    MoveInto(Allocate(new_capacity), new_capacity);
  }

  void DestroyAll() noexcept { std::destroy(data_, data_ + size_); }
  void FreeHeap() noexcept {
    if (!is_inline()) Deallocate(data_, capacity_);
  }

  // REQUIRES: this is empty. Leaves `other` empty.
  void TakeFrom(SmallVector* other) {
    if (other->is_inline()) {
      reserve(other->size_);
      std::uninitialized_move(other->begin(), other->end(), data_);
      size_ = other->size_;
      other->clear();
      return;
    }
    FreeHeap();
    data_ = other->data_;
    size_ = other->size_;
    capacity_ = other->capacity_;
    other->data_ = other->inline_data();
    other->size_ = 0;
    other->capacity_ = N;
  }

  static constexpr size_t kMaxSize = UINT32_MAX;

  T* data_;
  uint32_t size_ = 0;
  uint32_t capacity_ = N;
  alignas(T) unsigned char inline_[N * sizeof(T)];
};

}  // namespace cassette
