// A bound class's wrapper made by Class.__new__(Class) without __init__
// holds no C++ value; pybind11 2.10 would hand out raw storage as one (a
// crash or garbage; pybind11 issue #6153). Each class of the module loads
// through this caster, which raises TypeError for such a wrapper.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <typeinfo>

namespace pybind11::detail {

template <class T>
struct initialized_caster : type_caster_base<T> {
  bool load(handle src, bool convert) {
    const type_info* info = get_type_info(typeid(T));
    if (info != nullptr && PyObject_IsInstance(src.ptr(), reinterpret_cast<PyObject*>(info->type)) == 1 &&
        !reinterpret_cast<instance*>(src.ptr())->get_value_and_holder(info).holder_constructed()) {
      throw type_error(std::string(info->type->tp_name) + " object is not initialized (made by __new__ without __init__)");
    }
    return type_caster_base<T>::load(src, convert);
  }
};

}  // namespace pybind11::detail

/// T loads through initialized_caster: at global scope, before pybind11 first casts a T.
#define SIMDCCD_INITIALIZED_CASTER(T) \
  template <>                         \
  struct pybind11::detail::type_caster<T> : pybind11::detail::initialized_caster<T> {}
