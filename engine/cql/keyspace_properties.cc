#include "engine/cql/keyspace_properties.h"

#include <cerrno>
#include <cstdlib>
#include <map>
#include <string>

#include "engine/cql/table_properties.h"

namespace cassette::cql {
namespace {

constexpr char kLocatorPackage[] = "org.apache.cassandra.locator.";

Status Config(std::string message) { return Status::ConfigurationError(std::move(message)); }

// ReplicationFactor.fromString: "3" (or "3/1" with transient replicas,
// which need a cluster and are refused).
Status ValidateReplicationFactor(const std::string& value) {
  if (value.find('/') != std::string::npos) {
    return Config("Transient replication is not enabled on this node");
  }
  errno = 0;
  char* end = nullptr;
  const long long factor = value.empty() ? 0 : std::strtoll(value.c_str(), &end, 10);
  if (value.empty() || errno != 0 || end != value.c_str() + value.size() || factor > INT32_MAX ||
      factor < INT32_MIN) {
    return Config("For input string: \"" + value + "\"");
  }
  if (factor < 0) {
    return Config("Replication factor must be non-negative, found " + std::to_string(factor));
  }
  return Status::OK();
}

// The replication map as Cassandra stores it: the class without the
// locator package, NetworkTopologyStrategy's replication_factor expanded to
// the data centers (here, the one local data center).
Result<std::map<std::string, std::string>> NormalizeReplication(
    const std::string& keyspace, std::map<std::string, std::string> replication) {
  auto cls = replication.find("class");
  if (cls == replication.end()) return Config("Missing replication strategy class");
  const std::string written = cls->second;
  std::string name = written;
  if (name.rfind(kLocatorPackage, 0) == 0) name = name.substr(sizeof(kLocatorPackage) - 1);
  replication.erase(cls);
  if (name == "SimpleStrategy") {
    for (const auto& [key, value] : replication) {
      if (key != "replication_factor") {
        return Config("Unrecognized strategy option {" + key +
                      "} passed to SimpleStrategy for keyspace " + keyspace);
      }
    }
    auto factor = replication.find("replication_factor");
    if (factor == replication.end()) {
      return Config("SimpleStrategy requires a replication_factor strategy option.");
    }
    CASSETTE_RETURN_IF_ERROR(ValidateReplicationFactor(factor->second));
  } else if (name == "NetworkTopologyStrategy") {
    auto factor = replication.find("replication_factor");
    if (factor != replication.end()) {
      const std::string value = factor->second;
      replication.erase(factor);
      replication.emplace(kLocalDatacenter, value);
    }
    for (const auto& [datacenter, value] : replication) {
      CASSETTE_RETURN_IF_ERROR(ValidateReplicationFactor(value));
    }
  } else if (name == "LocalStrategy") {
    return Config(
        "Unable to use given strategy class: LocalStrategy is reserved for internal use.");
  } else {
    const std::string qualified =
        written.find('.') == std::string::npos ? kLocatorPackage + written : written;
    return Config("Unable to find replication strategy class '" + qualified + "'");
  }
  replication["class"] = name;
  return replication;
}

}  // namespace

Result<KeyspaceSchema> ApplyKeyspaceProperties(const std::vector<Property>& properties,
                                               KeyspaceSchema base, bool require_replication) {
  CASSETTE_RETURN_IF_ERROR(CheckNoRepeatedProperty(properties));
  const Property* replication = nullptr;
  const Property* durable_writes = nullptr;
  for (const Property& property : properties) {
    if (property.name == "replication") {
      replication = &property;
    } else if (property.name == "durable_writes") {
      durable_writes = &property;
    } else {
      return Status::SyntaxError("Unknown property '" + property.name + "'");
    }
  }
  KeyspaceSchema keyspace = std::move(base);
  if (replication != nullptr) {
    if (!replication->is_map) {
      return Status::SyntaxError("Invalid value for property 'replication'. It should be a map.");
    }
    std::map<std::string, std::string> map(replication->map.begin(), replication->map.end());
    CASSETTE_ASSIGN_OR_RETURN(keyspace.replication,
                              NormalizeReplication(keyspace.name, std::move(map)));
  } else if (require_replication) {
    return Status::InvalidRequest("Missing mandatory option 'replication'");
  }
  if (durable_writes != nullptr) {
    if (durable_writes->is_map) {
      return Status::SyntaxError(
          "Invalid value for property 'durable_writes'. It should be a string");
    }
    CASSETTE_ASSIGN_OR_RETURN(keyspace.durable_writes,
                              ParsePropertyBoolean("durable_writes", durable_writes->value));
  }
  return keyspace;
}

}  // namespace cassette::cql
